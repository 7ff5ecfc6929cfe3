import BatonSupport
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// A transport that does not stream bodies (`StubTransport`, a user's own) still gives a stream
/// its elements: the whole body, cut once it has arrived.
final class StreamOverStubTests: XCTestCase {
    struct Item: Decodable, Sendable, Equatable { var n: Int }

    private func client(answering body: String, contentType: String) throws -> Client {
        let transport = StubTransport { _, _ in
            HTTPResponse(statusCode: 200, headers: ["Content-Type": contentType], body: Data(body.utf8))
        }
        return try Client(baseURL: URL(string: "https://api.example.com/")!, transport: transport) { $0.retryPolicy = nil }
    }

    func test_events_fromAWholeBody() async throws {
        let client = try client(answering: "retry: 5\n\nid: 7\ndata: {\"n\": 1}\n\ndata: {\"n\": 2}\n\n", contentType: "text/event-stream")
        var items: [Item] = []
        for try await item in client.events(Request<Item>(.get, "feed")) { items.append(item) }
        XCTAssertEqual(items, [Item(n: 1), Item(n: 2)])
    }

    func test_lines_fromAWholeBody_theLastWithoutItsLineEnd() async throws {
        let client = try client(answering: "{\"n\": 1}\n\n{\"n\": 2}", contentType: "application/x-ndjson; charset=utf-8")
        let seen = Locked<[Item]>([])
        let end = try await client.lines(Request<Item>(.get, "export")) { item in seen.withLock { $0.append(item) } }.value
        XCTAssertEqual(seen.value, [Item(n: 1), Item(n: 2)])
        XCTAssertEqual(end.elements, 2)
        XCTAssertEqual(end.lastEventID, "")
    }
}
