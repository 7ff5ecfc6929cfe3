import XCTest
@testable import DemoServer

/// Requests that end without a full response: held by `stall-after` or `barrier`, or given up by
/// their client midway. Each is logged once the server is done with it, which is what these tests
/// wait for: an event, never a length of time.
final class RequestEndingTests: ServerTestCase {
    private let log = ServerLogWatch()

    override func makeConfiguration() -> DemoServer.Configuration {
        var configuration = super.makeConfiguration()
        // Longer than any test here: no connection is closed for silence while a test looks at it.
        configuration.idleTimeout = 300
        let log = self.log
        configuration.log = { log.append($0) }
        return configuration
    }

    /// A hang guard only: each wait ends on a log line the server writes at once.
    private let hangGuard: TimeInterval = 30

    private func healthRequest(fault: String) -> String {
        "GET /health HTTP/1.1\nHost: x\nX-Demo-Fault: \(fault)\n\n".crlf
    }

    func test_stallAfter_sendsTheFirstNBytes_thenHoldsTheConnectionUntilTheClientHangsUp() async throws {
        let held = log.expectLine(containing: "stalled after 12 bytes until the client closed the connection")
        let client = try rawClient(readTimeout: hangGuard)
        client.send(healthRequest(fault: "stall-after=12"))

        XCTAssertEqual(String(decoding: try client.readBytes(12), as: UTF8.self), "HTTP/1.1 200")
        client.hangUp()

        // Only a connection the server kept open until the client left is logged this way.
        await fulfillment(of: [held], timeout: hangGuard)
        XCTAssertEqual(log.lines.count, 1, "\(log.lines)")
    }

    func test_barrier_answersNoRequestUntilTheGroupIsComplete_thenAllOfIt() async throws {
        let clients = try (0..<3).map { _ in try rawClient(readTimeout: hangGuard) }
        clients[0].send(healthRequest(fault: "barrier=3"))
        clients[1].send(healthRequest(fault: "barrier=3"))
        try await waitUntilServerCounts(2, for: "GET /health", timeout: hangGuard)

        XCTAssertEqual(log.lines.filter { $0.contains("/health") }, [], "a request was answered before its group was complete")
        clients[2].send(healthRequest(fault: "barrier=3"))
        for client in clients {
            XCTAssertEqual(try client.readResponse().status, 200)
        }
    }

    func test_barrier_groupsByTheExactHeaderValue_andFormsTheNextGroupAfterwards() throws {
        let first = try (0..<2).map { _ in try rawClient(readTimeout: hangGuard) }
        let other = try (0..<2).map { _ in try rawClient(readTimeout: hangGuard) }
        let next = try (0..<2).map { _ in try rawClient(readTimeout: hangGuard) }
        // Interleaved: each pair meets only its own kind.
        first[0].send(healthRequest(fault: "barrier=2"))
        other[0].send(healthRequest(fault: "barrier=2;group=other"))
        first[1].send(healthRequest(fault: "barrier=2"))
        other[1].send(healthRequest(fault: "barrier=2;group=other"))
        for client in first + other {
            XCTAssertEqual(try client.readResponse().status, 200)
        }
        // The third and fourth requests with the first value: a new group of two.
        for client in next { client.send(healthRequest(fault: "barrier=2")) }
        for client in next {
            XCTAssertEqual(try client.readResponse().status, 200)
        }
    }

    func test_barrier_aClientHangingUpWhileHeld_endsItsWait() async throws {
        let abandoned = log.expectLine(containing: "abandoned: the client closed the connection")
        let client = try rawClient(readTimeout: hangGuard)
        client.send(healthRequest(fault: "barrier=2"))
        try await waitUntilServerCounts(1, for: "GET /health", timeout: hangGuard)

        client.hangUp()

        await fulfillment(of: [abandoned], timeout: hangGuard)
        XCTAssertEqual(log.lines.filter { $0.contains(#""GET /health HTTP/1.1" - 0B"#) && $0.contains("abandoned") }.count, 1, "\(log.lines)")
    }

    func test_aClientHangingUpMidBody_isLoggedAsIncomplete_withTheBytesThatArrived() async throws {
        let incomplete = log.expectLine(containing: "incomplete: the client closed the connection after 7 of 1000 body bytes")
        let client = try rawClient(readTimeout: hangGuard)
        client.send("POST /_demo/echo HTTP/1.1\nHost: x\nContent-Length: 1000\n\npartial".crlf)

        client.hangUp()

        await fulfillment(of: [incomplete], timeout: hangGuard)
        XCTAssertEqual(log.lines.count, 1, "\(log.lines)")
        XCTAssertTrue(log.lines.first?.contains(#""POST /_demo/echo HTTP/1.1" - 0B"#) == true, "\(log.lines)")
    }
}
