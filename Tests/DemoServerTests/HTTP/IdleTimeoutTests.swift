import XCTest
@testable import DemoServer

/// The server's idle timeout, short here (2 s): a kept-alive connection left idle is closed,
/// and the time a request takes to answer does not count as idle.
final class IdleTimeoutTests: ServerTestCase {
    override func makeConfiguration() -> DemoServer.Configuration {
        var configuration = super.makeConfiguration()
        configuration.idleTimeout = 2
        return configuration
    }

    /// The next request follows the response at once: only a pause of this test of 2 s or more
    /// between the two could let the connection go idle for that long.
    func test_delayLongerThanTheIdleTimeout_keepsTheConnectionForTheNextRequest() throws {
        let client = try rawClient()
        client.send("GET /health HTTP/1.1\nHost: x\nX-Demo-Fault: delay=2500ms\n\n".crlf)
        XCTAssertEqual(try client.readResponse().status, 200)
        client.send("GET /health HTTP/1.1\nHost: x\n\n".crlf)
        XCTAssertEqual(try client.readResponse().status, 200)
    }

    func test_idleKeepAliveConnection_isClosedAfterTheIdleTimeout() throws {
        let client = try rawClient()
        client.send("GET /health HTTP/1.1\nHost: x\n\n".crlf)
        XCTAssertEqual(try client.readResponse().status, 200)
        // Closed by the server's 2 s idle timeout (the client's read timeout is a hang guard).
        let (closed, bytes) = client.readUntilClosed()
        XCTAssertTrue(closed)
        XCTAssertEqual(bytes, [])
    }
}
