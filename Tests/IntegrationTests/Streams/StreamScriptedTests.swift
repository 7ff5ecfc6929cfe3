@testable import BatonSupport
@testable import BatonClient
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
        let server = try ScriptedServer(response: Self.events)
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

    /// A handler that does not keep up holds HTTP1Transport's reading, and TCP then the server:
    /// the server's writes stall while the handler waits, and memory does not grow.
    func test_aSlowHandler_holdsTheServerBack_overHTTP1Transport() async throws {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n".utf8)
        let event = Array("data: {\"n\": 1}\n\n".utf8)
        let piece = Array((0..<4096).flatMap { _ in event })
        let server = try ScriptedServer(response: head, streamed: 256 << 20, piece: piece)
        let client = try Client(baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!, transport: HTTP1Transport())
        let release = DispatchSemaphore(value: 0)
        let first = Locked(true)
        let stream = client.events(Request<Number>(.get, "answer")) { _ in
            let isFirst = first.withLock { isFirst in
                defer { isFirst = false }
                return isFirst
            }
            if isFirst { release.wait() }
        }
        await fulfillment(of: [server.heldBack], timeout: 30)
        XCTAssertLessThan(server.sent.value, 64 << 20, "the server was held back long before its 256 MiB")
        release.signal()
        stream.cancel()
        do {
            _ = try await stream.value
            XCTFail("a cancelled stream fulfilled")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
    }

    /// A reader pulling elements (`for try await`) that stops pulling holds HTTP1Transport's
    /// reading too, though no handler holds its thread: the transport waits once the elements
    /// waiting for the reader pass the stream's bound.
    ///
    /// The events are large (64 KiB each), so that a client that went on reading would cut them
    /// far faster than the server's writes could ever wait a fifth of a second for it: the server
    /// is held back only by a client that stopped.
    func test_aReaderThatStopsPulling_holdsTheServerBack_overHTTP1Transport() async throws {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n".utf8)
        let piece = Array("data: ".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: (64 << 10) - 8) + Array("\n\n".utf8)
        let server = try ScriptedServer(response: head, streamed: 256 << 20, piece: piece)
        let client = try Client(baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!, transport: HTTP1Transport())
        var elements = client.events(Request<String>(.get, "answer")).makeAsyncIterator()

        let first = try await elements.next()
        XCTAssertEqual(first?.count, (64 << 10) - 8)
        await fulfillment(of: [server.heldBack], timeout: 30)
        XCTAssertLessThan(server.sent.value, 64 << 20, "the server was held back long before its 256 MiB")

        let second = try await elements.next()
        XCTAssertEqual(second?.count, (64 << 10) - 8, "the reader goes on where it stopped")
    }

    func test_anElementPastTheLimit_failsTheStream_withASentence() async throws {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\ndata: ok\n\ndata: ".utf8)
        let server = try ScriptedServer(response: head, streamed: 8 << 20)
        for (name, transport) in transports() {
            let client = try Client(baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!, transport: transport)
            var options = StreamOptions()
            options.maximumElementSize = 64 << 10
            let seen = Locked<[String]>([])
            do {
                _ = try await client.events(Request<String>(.get, "answer"), options: options) { text in seen.withLock { $0.append(text) } }.value
                XCTFail("\(name): an event of 8 MiB passed a limit of 64 KiB")
            } catch let error as APIError {
                XCTAssertEqual(error.kind, .elementTooLarge, name)
                XCTAssertEqual(error.description, "GET http://127.0.0.1:\(server.port)/answer sent an event larger than the stream's maximumElementSize of 64 KiB; the stream was stopped.", name)
            }
            XCTAssertEqual(seen.value, ["ok"], name)
        }
    }

    func test_aWrongMediaType_failsBeforeAnyElement_withTheBodysStart() async throws {
        let answer = Array("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 20\r\n\r\n<html>not events</a>".utf8)
        let server = try ScriptedServer(response: answer)
        for (name, transport) in transports() {
            let client = try Client(baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!, transport: transport)
            var pulled = 0
            do {
                for try await _ in client.events(Request<String>(.get, "answer")) { pulled += 1 }
                XCTFail("\(name): an HTML answer was taken for events")
            } catch let error as APIError {
                XCTAssertEqual(error.kind, .unacceptableContentType, name)
                XCTAssertTrue(error.description.contains("<html>not events"), "\(name): \(error)")
            }
            XCTAssertEqual(pulled, 0)
        }
    }

    func test_anErrorStatusOfTheStreamsType_failsBeforeAnyElement() async throws {
        let answer = Array("HTTP/1.1 500 Internal Server Error\r\nContent-Type: text/event-stream\r\nContent-Length: 14\r\n\r\ndata: broken\n\n".utf8)
        let server = try ScriptedServer(response: answer)
        for (name, transport) in transports() {
            let client = try Client(baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!, transport: transport) { $0.retryPolicy = nil }
            let seen = Locked(0)
            do {
                _ = try await client.events(Request<String>(.get, "answer")) { _ in seen.withLock { $0 += 1 } }.value
                XCTFail("\(name): a 500 was taken for a stream")
            } catch let error as APIError {
                XCTAssertEqual(error.statusCode, 500, name)
                XCTAssertTrue(error.description.contains("data: broken"), "\(name): \(error)")
            }
            XCTAssertEqual(seen.value, 0, name)
        }
    }

    /// Pausing a stream stops its reading (the server is held back), and resuming goes on.
    func test_pausingAStream_holdsTheServerBack_untilResumed() async throws {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n".utf8)
        let piece = Array((0..<4096).flatMap { _ in Array("data: {\"n\": 1}\n\n".utf8) })
        let server = try ScriptedServer(response: head, streamed: 256 << 20, piece: piece)
        let client = try Client(baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!, transport: HTTP1Transport())
        let first = expectation(description: "the first element")
        let more = expectation(description: "a thousand elements after resuming")
        // Elements counted, and the count that, once passed, fulfils `more` (set on resuming).
        let tally = Locked((count: 0, goal: Int?.none))
        let stream = client.events(Request<Number>(.get, "answer")) { _ in
            let (count, goal) = tally.withLock { tally in
                tally.count += 1
                return tally
            }
            if count == 1 { first.fulfill() }
            if let goal, count == goal { more.fulfill() }
        }
        await fulfillment(of: [first], timeout: 30)
        stream.pause()
        await fulfillment(of: [server.heldBack], timeout: 30)
        XCTAssertLessThan(server.sent.value, 64 << 20, "the server was held back long before its 256 MiB")

        tally.withLock { $0.goal = $0.count + 1000 }
        stream.resume()
        await fulfillment(of: [more], timeout: 30)
        stream.cancel()
    }

    /// Raw events to a handler: every event in order, or only those of the type asked for.
    func test_rawEvents_toAHandler_inOrder_filteredByType() async throws {
        let server = try ScriptedServer(response: Self.events)
        let client = try Client(baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!, transport: HTTP1Transport())
        let all = Locked<[String]>([])
        _ = try await client.events(Request<ServerSentEvent>(.get, "answer")) { event in all.withLock { $0.append(event.type + ":" + event.data) } }.value
        XCTAssertEqual(all.value, [#"message:{"n": 1}"#, #"message:{"n": 2}"#, "other:x", "message:{\"n\"\n: 3}"])
        var options = StreamOptions()
        options.eventType = "other"
        let other = Locked<[String]>([])
        let end = try await client.events(Request<ServerSentEvent>(.get, "answer"), options: options) { event in other.withLock { $0.append(event.data) } }.value
        XCTAssertEqual(other.value, ["x"])
        XCTAssertEqual(end.elements, 1)
    }

    /// A gzip stream of tiny events, a thousandfold smaller than what it inflates to, is handed
    /// over a read's worth at a time: while the first event's handler waits, memory has not
    /// grown by what one read of the socket inflates to.
    func test_aGzipStreamOfTinyEvents_staysBounded_whileTheHandlerWaits() async throws {
        #if os(Linux)
        let head = Array("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n".utf8)
        let body = GzipBomb.repeating(Array("data:x\n\n".utf8), count: 512 << 20)
        let server = try ScriptedServer(response: head + body, holdsOpen: true)
        let client = try Client(baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!, transport: HTTP1Transport())
        let before = try PeakMemory.reset()
        let release = DispatchSemaphore(value: 0)
        let first = expectation(description: "the first event")
        let isFirst = Locked(true)
        let stream = client.events(Request<String>(.get, "answer")) { _ in
            guard isFirst.withLock({ flag in defer { flag = false }; return flag }) else { return }
            first.fulfill()
            release.wait()
        }
        await fulfillment(of: [first], timeout: 30)
        let growth = try PeakMemory.read() - before
        release.signal()
        stream.cancel()
        XCTAssertLessThan(growth, 48 << 20, "peak resident memory grew by \(growth >> 20) MiB before the first event was handled")
        #endif
    }
}
