import BatonSupport
import XCTest
@testable import DemoServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starting and stopping: on loopback, and leaving no descriptor or thread behind.
final class ServerLifecycleTests: XCTestCase {
    private func health(_ server: DemoServer) throws -> Int {
        let client = try RawClient(port: server.port)
        client.send("GET /health HTTP/1.1\nHost: x\nConnection: close\n\n".crlf)
        return try client.readResponse().status
    }

    func test_start_listensOnLoopbackWithASystemPickedPort() throws {
        let server = try DemoServer()
        defer { server.stop() }
        XCTAssertNotEqual(server.port, 0)
        XCTAssertEqual(server.baseURL.absoluteString, "http://127.0.0.1:\(server.port)")
        XCTAssertEqual(try health(server), 200)
    }

    /// Counted by the server itself (its descriptors, its threads), not by the whole process,
    /// which other tests' URLSessions share: one leaked socket, pipe or thread per cycle shows.
    func test_startingAndStopping100Servers_returnsDescriptorsAndThreadsToBaseline() throws {
        let descriptors = Posix.openDescriptors.value
        for _ in 0..<100 {
            let server = try DemoServer()
            XCTAssertEqual(try health(server), 200)
            // A connection left open by its client must be closed by stop(), too.
            let idle = try RawClient(port: server.port)
            idle.send("GET /health HTTP/1.1\nHost: x\n\n".crlf)
            XCTAssertEqual(try idle.readResponse().status, 200)
            server.stop()
            XCTAssertTrue(idle.readUntilClosed().closed)
        }
        XCTAssertEqual(Posix.openDescriptors.value, descriptors)
        XCTAssertEqual(HTTPServer.runningThreads.value, 0)
    }

    func test_startAndStop_twentyTimesInARow_eachServerAnswers() throws {
        for _ in 0..<20 {
            let server = try DemoServer()
            XCTAssertEqual(try health(server), 200)
            server.stop()
        }
        XCTAssertEqual(HTTPServer.runningThreads.value, 0)
    }

    func test_stop_cutsOffIdlePartialAndDelayedConnectionsPromptly() throws {
        var configuration = DemoServer.Configuration()
        configuration.idleTimeout = 300
        let server = try DemoServer(configuration: configuration)
        let idle = try RawClient(port: server.port)
        let partial = try RawClient(port: server.port)
        partial.send("GET /health HTTP/1.1\nHost:")
        let delayed = try RawClient(port: server.port)
        delayed.send("GET /health HTTP/1.1\nHost: x\nX-Demo-Fault: delay=300s\n\n".crlf)
        XCTAssertEqual(try health(server), 200)  // by now the server has read the other requests' bytes too

        let start = ContinuousClock.now
        server.stop()
        // A hang guard, generous for a busy machine: the delayed response and the idle connection
        // would each hold stop() for 300 s.
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(60))
        for client in [idle, partial, delayed] {
            XCTAssertTrue(client.readUntilClosed().closed)
        }
        XCTAssertEqual(HTTPServer.runningThreads.value, 0)
    }

    func test_stop_isIdempotentAndSafeFromSeveralThreads() throws {
        let server = try DemoServer()
        DispatchQueue.concurrentPerform(iterations: 8) { _ in server.stop() }
        server.stop()
        XCTAssertThrowsError(try RawClient(port: server.port))
    }

    /// As the type's documentation warns: a server lives as long as its value, so
    /// `try DemoServer.start().baseURL` keeps a URL at which nothing answers.
    func test_releasingTheLastReference_stopsTheServer() throws {
        let descriptors = Posix.openDescriptors.value
        var port: UInt16 = 0
        do {
            let server = try DemoServer()
            port = server.port
            XCTAssertEqual(try health(server), 200)
        }
        XCTAssertEqual(Posix.openDescriptors.value, descriptors)
        XCTAssertThrowsError(try RawClient(port: port))
    }

    func test_portInUse_throwsAnErrorNamingTheBind() throws {
        let first = try DemoServer()
        defer { first.stop() }
        var configuration = DemoServer.Configuration()
        configuration.port = first.port
        XCTAssertThrowsError(try DemoServer(configuration: configuration)) { error in
            let serverError = error as? DemoServerError
            XCTAssertEqual(serverError?.code, EADDRINUSE)
            XCTAssertEqual(serverError?.operation, "bind 127.0.0.1:\(first.port)")
            XCTAssertTrue(serverError?.description.hasPrefix("DemoServer could not bind 127.0.0.1:\(first.port): ") == true)
        }
    }

    func test_fixedPort_isTheOneListenedOn() throws {
        let probe = try DemoServer()
        let port = probe.port
        probe.stop()
        var configuration = DemoServer.Configuration()
        configuration.port = port
        let server = try DemoServer(configuration: configuration)
        defer { server.stop() }
        XCTAssertEqual(server.port, port)
        XCTAssertEqual(try health(server), 200)
    }

    func test_staticStartWithConfiguration_appliesTheGivenSettings() throws {
        let server = try DemoServer.start(configuration: DemoServer.Configuration(tokenLifetime: 3600, seed: 7))
        defer { server.stop() }
        XCTAssertEqual(server.configuration.tokenLifetime, 3600)
        XCTAssertEqual(server.configuration.seed, 7)
        XCTAssertEqual(server.configuration.maxBodyBytes, 64 << 20)
        XCTAssertEqual(server.configuration.idleTimeout, 10)
        let client = try RawClient(port: server.port)
        let body = "grant_type=password&username=demo&password=demo"
        client.send("POST /tokens HTTP/1.1\nHost: x\nContent-Type: application/x-www-form-urlencoded\nContent-Length: \(body.count)\n\n".crlf + body)
        let object = try JSONSerialization.jsonObject(with: Data(try client.readResponse().body)) as? [String: Any]
        XCTAssertEqual(object?["expires_in"] as? Int, 3600)
    }

    func test_log_receivesOneLinePerRequest() throws {
        let lines = Locked<[String]>([])
        var configuration = DemoServer.Configuration()
        configuration.log = { line in lines.withLock { $0.append(line) } }
        let server = try DemoServer(configuration: configuration)
        XCTAssertEqual(try health(server), 200)
        server.stop()
        let logged = lines.value
        XCTAssertEqual(logged.count, 1)
        XCTAssertTrue(logged.first?.contains("\"GET /health HTTP/1.1\" 200 15B") == true, logged.first ?? "")
        XCTAssertTrue(logged.first?.hasPrefix("127.0.0.1:") == true)
    }
}
