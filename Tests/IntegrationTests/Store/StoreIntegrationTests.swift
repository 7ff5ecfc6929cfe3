@testable import BatonClient
import DemoServer
import Foundation
import TestSupport
import XCTest

/// A book as the app stores it.
struct StoredBook: StoredEntity, Equatable {
    var id: Int
    var title: String
    var author: String
}

/// Decoded entities saved to a `FileEntityStore` against DemoServer: read back by another
/// process, written by two at once, and answered from when the server is gone.
final class StoreIntegrationTests: FolderTestCase {
    private var store: FileEntityStore { FileEntityStore(folder: folder.appending(path: "entities")) }

    func test_aBook_isInTheFileStore_whenItsCallFulfils_andASecondProcessReadsItBack() async throws {
        if let role = ChildProcess.role, role.name == "read-book" {
            // The child: a fresh process reads what the parent saved, and says so by its status.
            let book = try FileEntityStore(folder: URL(fileURLWithPath: role.argument)).read(StoredBook.self, id: 1)
            return try ChildProcess.report(book?.title ?? "no book")
        }
        let client = try makeClient { $0.store = self.store }

        let book = try await client.send(Request<StoredBook>(.get, "books/1")).value

        XCTAssertEqual(try store.read(StoredBook.self, id: 1), book)
        let read = try ChildProcess.run(
            test: "IntegrationTests.StoreIntegrationTests/test_aBook_isInTheFileStore_whenItsCallFulfils_andASecondProcessReadsItBack",
            role: "read-book", argument: store.folder.path
        )
        XCTAssertEqual(read, "吾輩は猫である", "what the second process read back")
    }

    func test_twoProcessesWritingDifferentIDs_loseNothing() async throws {
        if let role = ChildProcess.role, role.name == "write-ids" {
            let store = FileEntityStore(folder: URL(fileURLWithPath: role.argument))
            for id in 1000..<1200 { try store.save(StoredBook(id: id, title: "child", author: "\(id)")) }
            return try ChildProcess.report("wrote 200")
        }
        let store = self.store
        let folder = store.folder.path
        let child = Task.detached {
            try ChildProcess.run(test: "IntegrationTests.StoreIntegrationTests/test_twoProcessesWritingDifferentIDs_loseNothing", role: "write-ids", argument: folder)
        }
        for id in 0..<200 { try store.save(StoredBook(id: id, title: "parent", author: "\(id)")) }
        let report = try await child.value

        XCTAssertEqual(report, "wrote 200")
        let all = try store.readAll(StoredBook.self)
        XCTAssertEqual(all.count, 400)
        XCTAssertEqual(all.filter { $0.title == "child" }.map(\.id).sorted(), Array(1000..<1200))
    }

    func test_offline_withTheServerStopped_theBookIsAnsweredFromTheStore() async throws {
        let server = try DemoServer.start()
        let token = try await login(on: server).token
        let client = try Client(baseURL: server.baseURL) { configuration in
            configuration.headers["Authorization"] = "Bearer \(token)"
            configuration.retryPolicy = Self.fastRetries
            configuration.store = self.store
        }
        let fresh = try await client.fetch(Request<StoredBook>(.get, "books/2"), offline: .stored(id: 2)).value
        server.stop()

        let stored = try await client.fetch(Request<StoredBook>(.get, "books/2"), offline: .stored(id: 2)).value

        XCTAssertFalse(fresh.isFromStore)
        XCTAssertEqual(fresh.response?.statusCode, 200)
        XCTAssertTrue(stored.isFromStore)
        XCTAssertEqual(stored.value, fresh.value)
        XCTAssertEqual((stored.networkError as? APIError)?.kind, .transport)
    }
}
