import XCTest
@testable import DemoServer

/// How streams end: finished, cut by a fault (`drop-after-events`, `stall-after-events`), paced
/// by `drip`, or given up by the client or the server. Each stream's end is logged once, which is
/// what these tests wait for: an event, never a length of time.
final class StreamEndingTests: ServerTestCase {
    private let log = ServerLogWatch()

    override func makeConfiguration() -> DemoServer.Configuration {
        var configuration = super.makeConfiguration()
        // A client that stops reading is given up after it.
        configuration.idleTimeout = 1
        let log = self.log
        configuration.log = { log.append($0) }
        return configuration
    }

    /// A hang guard only: each wait ends on a log line the server writes at once.
    private let hangGuard: TimeInterval = 30

    private func get(_ target: String, fault: String) -> String {
        "GET \(target) HTTP/1.1\nHost: x\nX-Demo-Fault: \(fault)\n\n".crlf
    }

    func test_aFinishedStream_isLoggedWithItsCount_beforeItsLastChunkGoes() throws {
        let client = try rawClient(readTimeout: hangGuard)
        client.send("GET /_demo/lines?count=3 HTTP/1.1\nHost: x\n\n".crlf)
        XCTAssertEqual(try client.readHead().status, 200)
        XCTAssertEqual(try client.readChunks().count, 3)

        let line = try XCTUnwrap(log.lines.last)
        XCTAssertTrue(line.contains(#""GET /_demo/lines?count=3 HTTP/1.1" 200 195B "#), line)
        XCTAssertTrue(line.hasSuffix("ms streamed 3 lines: finished"), line)
    }

    func test_dropAfterEvents_closesAfterNEvents_withoutTheLastChunk() async throws {
        let dropped = log.expectLine(containing: "streamed 3 events: dropped (X-Demo-Fault)")
        let client = try rawClient(readTimeout: hangGuard)
        client.send(get("/_demo/events?count=10", fault: "drop-after-events=3"))

        XCTAssertEqual(try client.readHead().status, 200)
        for _ in 0..<3 { XCTAssertNotNil(try client.readChunk()) }
        XCTAssertThrowsError(try client.readChunk()) { error in
            guard case RawClient.Failure.closedBeforeResponse(let rest) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(rest, [], "nothing after the third event, not even the last chunk")
        }
        await fulfillment(of: [dropped], timeout: hangGuard)
    }

    func test_aClientClosingMidStream_endsItAtOnce_andTheLogSaysSo() async throws {
        let closed = log.expectLine(containing: ": the client closed the connection")
        let client = try rawClient(readTimeout: hangGuard)
        // The first event at once, the next a minute later: only the hang-up, noticed while the
        // server waits, ends the stream within the wait below.
        client.send(get("/_demo/events?count=10", fault: "drip=60s"))
        XCTAssertEqual(try client.readHead().status, 200)
        XCTAssertNotNil(try client.readChunk())
        client.hangUp()

        await fulfillment(of: [closed], timeout: hangGuard)
        XCTAssertEqual(server.stats.streamElementsSent, 1)
    }

    func test_stallAfterEvents_sendsNEvents_thenNothingUntilTheClientHangsUp() async throws {
        let stalled = log.expectLine(containing: "streamed 2 events: stalled until the client closed the connection (X-Demo-Fault)")
        let client = try rawClient(readTimeout: hangGuard)
        client.send(get("/_demo/events?count=5", fault: "stall-after-events=2"))
        XCTAssertEqual(try client.readHead().status, 200)
        XCTAssertNotNil(try client.readChunk())
        XCTAssertNotNil(try client.readChunk())

        // Held: the stream is in progress, its third event never sent.
        client.setReadTimeout(0.3)
        XCTAssertThrowsError(try client.readChunk()) { error in
            guard case RawClient.Failure.timedOut = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(server.stats.streamsStarted, 1)
        XCTAssertFalse(log.lines.contains { $0.contains("/_demo/events") }, "\(log.lines)")
        client.hangUp()
        await fulfillment(of: [stalled], timeout: hangGuard)
        // Counted once each write returned, on the thread that then logged the line: a client
        // reading the events may see them before they are counted.
        XCTAssertEqual(server.stats.streamElementsSent, 2)
    }

    func test_drip_waitsThatLongBetweenEvents() throws {
        let client = try rawClient(readTimeout: hangGuard)
        let start = ContinuousClock.now
        client.send(get("/_demo/events?count=3", fault: "drip=150ms"))
        XCTAssertEqual(try client.readHead().status, 200)
        XCTAssertEqual(try client.readChunks().count, 3)
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(300))
    }

    func test_theServerStopping_endsAStream_andSaysSo() throws {
        let client = try rawClient(readTimeout: hangGuard)
        // 10 s between events: the stop below comes during the first wait.
        client.send(get("/_demo/events?count=1000", fault: "drip=10s"))
        XCTAssertEqual(try client.readHead().status, 200)
        XCTAssertNotNil(try client.readChunk())

        server.stop()  // returns once every connection is done, logged
        XCTAssertTrue(log.lines.contains { $0.contains("streamed 1 event: the server stopped") }, "\(log.lines)")
        XCTAssertTrue(client.readUntilClosed().closed)
    }

    func test_aClientThatStopsReading_endsTheStreamAfterTheIdleTimeout() async throws {
        let stuck = log.expectLine(containing: "lines: the client read nothing for")
        let client = try rawClient(readTimeout: hangGuard)
        // 1 GiB: far more than the sockets' buffers hold, so the server's writes wait for room.
        client.send("GET /_demo/lines?count=1024&size=1048576 HTTP/1.1\nHost: x\n\n".crlf)

        await fulfillment(of: [stuck], timeout: hangGuard)
        XCTAssertLessThan(server.stats.streamElementsSent, 1024)
    }
}
