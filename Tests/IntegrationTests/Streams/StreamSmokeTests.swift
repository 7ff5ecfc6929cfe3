@testable import Baton
import BatonLocking
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// Streams against a scripted server (fixed bytes): both transports, both styles.
final class StreamScriptedTests: XCTestCase {
    private static let events = Array((
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"
        + ": hello\r\nretry: 10\r\n\r\nid: 1\ndata: {\"n\": 1}\n\nid: 2\r\ndata: {\"n\": 2}\r\n\r\nevent: other\ndata: x\n\ndata: {\"n\"\ndata: : 3}\n\n"
    ).utf8)

    struct Number: Decodable, Sendable, Equatable { var n: Int }

    private func transports() -> [(String, any Transport)] {
        [("HTTP1Transport", HTTP1Transport()), ("URLSessionTransport", URLSessionTransport())]
    }

    func test_events_arriveDecoded_inOrder_overEachTransport_inBothStyles() async throws {
        let server = try ScriptedServer(answer: Self.events)
        for (name, transport) in transports() {
            let client = try Client(baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!, transport: transport)
            var options = StreamOptions()
            options.eventType = "message"
            let seen = Locked<[Int]>([])
            let end = try await client.events(Request<Number>(.get, "answer"), options: options) { number in
                seen.withLock { $0.append(number.n) }
            }.value
            XCTAssertEqual(seen.value, [1, 2, 3], name)
            XCTAssertEqual(end.elements, 3, name)
            XCTAssertEqual(end.lastEventID, "2", name)

            var pulled: [Int] = []
            for try await number in client.events(Request<Number>(.get, "answer"), options: options) { pulled.append(number.n) }
            XCTAssertEqual(pulled, [1, 2, 3], name)

            var raw: [ServerSentEvent] = []
            for try await event in client.events(Request<ServerSentEvent>(.get, "answer")) { raw.append(event) }
            XCTAssertEqual(raw.map(\.type), ["message", "message", "other", "message"], name)
        }
    }
}
