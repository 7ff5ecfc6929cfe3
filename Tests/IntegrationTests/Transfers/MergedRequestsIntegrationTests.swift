@testable import BatonSupport
@testable import BatonPromise
@testable import BatonClient
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `Client.Configuration.mergesIdenticalRequests` against DemoServer: identical `GET`s at once
/// make one request; the same `GET`s with different tokens make one each.
final class MergedRequestsIntegrationTests: IntegrationTestCase {
    /// A transport that holds every request until the test opens it, then sends them all through
    /// the client's real transport: so that all the calls are in flight at once, whatever the
    /// machine's speed.
    final class HeldTransport: Transport {
        let inner: any Transport
        private let gate = DispatchSemaphore(value: 0)
        private let opened = Locked(false)
        let sent = Locked(0)

        init(inner: any Transport) {
            self.inner = inner
        }

        func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
            sent.withLock { $0 += 1 }
            return Promise { _, fulfill, reject, _ in
                DispatchQueue.global().async { [self] in
                    if !opened.value {
                        gate.wait()
                        gate.signal()
                    }
                    inner.send(request, body: body, options: options).then { result in
                        switch result {
                        case .success(let response): fulfill(response)
                        case .failure(let error): reject(error)
                        }
                    }
                }
            }
        }

        func open() {
            opened.withLock { $0 = true }
            gate.signal()
        }
    }

    private func heldClient(merging: Bool) throws -> (Client, HeldTransport) {
        let held = HeldTransport(inner: try makeClient().transport)
        var configuration = Client.Configuration(baseURL: server.baseURL)
        configuration.mergesIdenticalRequests = merging
        configuration.retryPolicy = nil
        return (try Client(configuration: configuration, transport: held), held)
    }

    func test_100IdenticalGETsAtOnce_makeOneRequest_andEachCallDecodesTheAnswer() async throws {
        let (client, held) = try heldClient(merging: true)
        let calls = (0..<100).map { _ in client.send(Request<Book>(.get, "books/1", headers: ["Authorization": "Bearer \(token!)"])) }
        held.open()

        var books: [Book] = []
        for call in calls { books.append(try await call.value) }

        XCTAssertEqual(books.count, 100)
        XCTAssertEqual(Set(books.map(\.title)), ["吾輩は猫である"])
        XCTAssertEqual(held.sent.value, 1)
        let requests = try await requestCount("GET /books/:id")
        XCTAssertEqual(requests, 1)
    }

    func test_100GETsWithDifferentTokens_makeOneRequestEach() async throws {
        var tokens: [String] = []
        for _ in 0..<100 { tokens.append(try await login(on: server).token) }
        let (client, held) = try heldClient(merging: true)
        let calls = tokens.map { token in client.send(Request<Book>(.get, "books/1", headers: ["Authorization": "Bearer \(token)"])) }
        held.open()

        for call in calls { _ = try await call.value }

        XCTAssertEqual(held.sent.value, 100)
        let requests = try await requestCount("GET /books/:id")
        XCTAssertEqual(requests, 100)
    }

    func test_oneCallerCancelling_leavesTheOthersRequestRunning() async throws {
        let (client, held) = try heldClient(merging: true)
        let request = Request<Book>(.get, "books/2", headers: ["Authorization": "Bearer \(token!)"])
        let first = client.send(request)
        let second = client.send(request)
        first.cancel()
        held.open()

        let book = try await second.value

        XCTAssertEqual(book.id, 2)
        do {
            _ = try await first.value
            XCTFail("the cancelled call fulfilled")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertEqual(held.sent.value, 1)
    }

    func test_withoutMerging_identicalGETsMakeOneRequestEach() async throws {
        let (client, held) = try heldClient(merging: false)
        let calls = (0..<10).map { _ in client.send(Request<Book>(.get, "books/1", headers: ["Authorization": "Bearer \(token!)"])) }
        held.open()

        for call in calls { _ = try await call.value }

        XCTAssertEqual(held.sent.value, 10)
    }
}
