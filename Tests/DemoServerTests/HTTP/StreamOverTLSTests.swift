import XCTest
@testable import DemoServer

/// Streams over `https`: the same chunks through TLS, and a TLS client's hang-up (its
/// `close_notify`) ends a stream at once.
final class StreamOverTLSTests: ServerTestCase {
    private let log = ServerLogWatch()

    override func makeConfiguration() -> DemoServer.Configuration {
        var configuration = super.makeConfiguration()
        configuration.tls = .loopback
        let log = self.log
        configuration.log = { log.append($0) }
        return configuration
    }

    /// A hang guard only: each wait ends on bytes or a log line the server sends at once.
    private let hangGuard: TimeInterval = 30

    func test_eventsOverTLS_arriveChunked_andTheConnectionServesTheNextRequest() throws {
        let client = try rawClient(readTimeout: hangGuard)
        try client.startTLS()
        client.send("GET /_demo/events?count=3&size=40 HTTP/1.1\nHost: x\n\n".crlf)

        let (status, headers) = try client.readHead()
        XCTAssertEqual(status, 200)
        XCTAssertEqual(headers["transfer-encoding"], "chunked")
        let events = eventBlocks(try client.readChunks().flatMap { $0 })
        XCTAssertEqual(events.map { $0["id"] }, ["1", "2", "3"])
        XCTAssertEqual(events.map { $0["data"]?.utf8.count }, [40, 40, 40])

        client.send("GET /health HTTP/1.1\nHost: x\n\n".crlf)
        XCTAssertEqual(try client.readResponse().status, 200)
    }

    func test_aTLSClientClosingMidStream_endsItAtOnce() async throws {
        let closed = log.expectLine(containing: ": the client closed the connection")
        let client = try rawClient(readTimeout: hangGuard)
        try client.startTLS()
        // The first event at once, the next a minute later: only the hang-up, noticed while the
        // server waits, ends the stream within the wait below.
        client.send("GET /_demo/events?count=10 HTTP/1.1\nHost: x\nX-Demo-Fault: drip=60s\n\n".crlf)
        XCTAssertEqual(try client.readHead().status, 200)
        XCTAssertNotNil(try client.readChunk())
        client.hangUp()

        await fulfillment(of: [closed], timeout: hangGuard)
        XCTAssertEqual(server.stats.streamElementsSent, 1)
    }
}
