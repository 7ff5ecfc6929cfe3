@testable import BatonSupport
@testable import BatonPromise
@testable import BatonClient
import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `HTTP1Transport` against DemoServer and a scripted raw server: connections kept alive and
/// bounded, a stale connection's request sent again only when that is safe, bodies sent with
/// their length, malformed responses failing their calls with a sentence, and cookies kept.
final class HTTP1TransportIntegrationTests: IntegrationTestCase {
    /// A client of `server` over a transport of its own, with `maximumConnectionsPerOrigin`.
    private func makeHTTP1Client(connections: Int = 16, retries: Bool = false) throws -> Client {
        var settings = HTTP1Transport.Configuration()
        settings.maximumConnectionsPerOrigin = connections
        var configuration = Client.Configuration(baseURL: server.baseURL)
        configuration.headers["Authorization"] = "Bearer \(token!)"
        configuration.retryPolicy = retries ? Self.fastRetries : nil
        return try Client(configuration: configuration, transport: HTTP1Transport(configuration: settings))
    }

    /// The connections the server accepted while `work` ran.
    private func connectionsOpened(by work: () async throws -> Void) async throws -> Int {
        let before = server.stats.connectionsAccepted
        try await work()
        return server.stats.connectionsAccepted - before
    }

    /// The default transport carries `http` itself, a proxy in the environment included: it
    /// hands its own transport the environment's proxies rather than URLSession the request.
    func test_theDefaultTransport_carriesHTTPOverHTTP1Transport_proxiedOrNot() {
        XCTAssertTrue(client.transport is DefaultTransport)
        #if canImport(FoundationNetworking)
        XCTAssertTrue(DefaultTransport(environment: [:]).routesToHTTP1(scheme: "http"))
        let proxied = DefaultTransport(environment: ["http_proxy": "http://proxy:3128", "no_proxy": ".example.com"])
        XCTAssertTrue(proxied.routesToHTTP1(scheme: "http"))
        let proxies = proxied.ownTransport?.configuration.proxies
        XCTAssertEqual(proxies?.http?.description, "http://proxy:3128")
        XCTAssertNil(try proxies?.proxy(for: URL(string: "http://api.example.com/")!))
        XCTAssertEqual(try proxies?.proxy(for: URL(string: "http://example.org/")!)?.server, "proxy:3128")
        #endif
    }

    /// A connection idling in the pool (for a minute) holds nothing of the request it carried:
    /// the promise, and with it the response (a 64 MiB download into memory, say), goes with the
    /// caller's last reference, not when the connection next wakes.
    func test_anIdleConnection_keepsNothingOfTheLastResponse() async throws {
        let transport = HTTP1Transport()
        weak var released: Promise<HTTPResponse>?
        do {
            var request = URLRequest(url: server.baseURL.appendingPathComponent("health"))
            request.setValue("Bearer \(token!)", forHTTPHeaderField: "Authorization")
            let promise = transport.send(request, body: nil, options: TransferOptions())
            released = promise
            _ = try await promise.value
        }
        // The connection's thread lets the request go right after settling it; wait for that,
        // far less than the idle timeout.
        let deadline = ContinuousClock.now + .seconds(10)
        while released != nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        XCTAssertNil(released, "the idle connection still holds the request and its response")
    }

    func test_sequentialRequests_reuseOneConnection() async throws {
        let client = try makeHTTP1Client()
        let opened = try await connectionsOpened {
            for id in 1...20 { _ = try await client.send(Request<Order>(.get, "orders/\(id % 8 + 1)")).value }
        }
        XCTAssertEqual(opened, 1)
    }

    func test_aThousandRequestsAtOnce_goThroughSixConnections() async throws {
        let client = try makeHTTP1Client(connections: 6)
        let opened = try await connectionsOpened {
            let calls = (0..<1000).map { client.send(Request<Order>(.get, "orders/\($0 % 8 + 1)")) }
            for call in calls { _ = try await call.value }
        }
        XCTAssertLessThanOrEqual(opened, 6)
        XCTAssertGreaterThanOrEqual(opened, 1)
    }

    /// The server drops the connection on receiving the second request, without a byte of
    /// response: a GET is sent once more, on a new connection, and succeeds.
    func test_aStaleConnection_sendsAnIdempotentRequestAgain() async throws {
        let client = try makeHTTP1Client()
        _ = try await client.send(Request<Order>(.get, "orders/1")).value

        let order = try await client.send(Request<Order>(.get, "orders/2", headers: ["X-Demo-Fault": "drop;times=1"])).value

        XCTAssertEqual(order.id, 2)
    }

    /// Monitors see the pool work: one connection opened, then reused, and closed with why when
    /// the server asks.
    func test_monitors_seeConnectionsOpenedReusedAndClosed() async throws {
        let recorder = EventRecorder()
        let base = try makeHTTP1Client()
        let client = try Client(configuration: base.configuration.withMonitors([recorder]), transport: base.transport)

        for id in 1...3 { _ = try await client.send(Request<Order>(.get, "orders/\(id)")).value }
        _ = try await client.send(Request<Order>(.get, "orders/4", headers: ["Connection": "close"])).value

        let connections = recorder.events.compactMap(\.connection)
        XCTAssertEqual(connections.map(\.kind), [.opened, .reused, .reused, .reused, .closed], "\(connections)")
        XCTAssertEqual(Set(connections.map(\.connection)).count, 1, "one connection: \(connections)")
        XCTAssertEqual(connections.last?.description, "connection 1 to 127.0.0.1:\(server.port) closed: the server asked to close it, or ended its answer by closing it")
    }

    /// A POST is not: it may have been acted on, so the call fails saying why.
    func test_aStaleConnection_failsAPOST_sayingWhy() async throws {
        let client = try makeHTTP1Client()
        _ = try await client.send(Request<Order>(.get, "orders/1")).value

        let error = await awaitFailure(client.send(Reviews.post(facilityID: 1, content: "once", rating: 4, headers: ["X-Demo-Fault": "drop;times=1"])))

        XCTAssertEqual(error?.urlError?.code, .networkConnectionLost, "\(String(describing: error))")
        XCTAssertTrue("\(error!)".contains("is not sent again by itself"), "\(error!)")
        XCTAssertEqual(server.stats.requests["POST /facilities/:facility_id/reviews"], 1, "sent once, not twice")
    }

    func test_aFileBody_goesWithContentLength_notChunked() async throws {
        let bytes = Data(Multipart.imageBytes(count: 300_000))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("baton-http1-\(UUID().uuidString)")
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let echo = try await makeHTTP1Client().send(Demo.echo(.post, body: .file(file, contentType: "application/octet-stream"))).value

        XCTAssertEqual(echo.headers["content-length"], "300000")
        XCTAssertNil(echo.headers["transfer-encoding"])
        XCTAssertNil(echo.headers["expect"])
        XCTAssertEqual(echo.bodySHA256, Fixtures.sha256Hex(bytes))
    }

    /// The server refuses the upload from its head (413) while the body is still going out: the
    /// call ends with that response, promptly, neither hanging nor crashing.
    func test_anUploadRefusedMidway_endsWithTheServersAnswer() async throws {
        let small = try DemoServer.start(configuration: DemoServer.Configuration(maxBodyBytes: 1 << 20, idleTimeout: 30))
        defer { small.stop() }
        let tokens = try await login(on: small)
        let client = try Client(baseURL: small.baseURL, transport: HTTP1Transport()) {
            $0.retryPolicy = nil
            $0.headers["Authorization"] = "Bearer \(tokens.token)"
        }
        let bytes = Data(repeating: 7, count: 16 << 20)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("baton-413-\(UUID().uuidString)")
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let error = await awaitFailure(client.send(Demo.echo(.post, body: .file(file, contentType: "application/octet-stream"))))

        XCTAssertEqual(error?.kind, .unacceptableStatus, "\(String(describing: error))")
        XCTAssertEqual(error?.statusCode, 413)
    }

    /// A server that answers `413` from the head and reads no more of the body: the client stops
    /// sending and reads the response, rather than wait for room to send the rest.
    func test_anAnswerBeforeTheBody_stopsTheUpload_andIsTheCallsAnswer() async throws {
        let server = try ScriptedServer(
            response: Array("HTTP/1.1 413 Content Too Large\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8),
            holdsOpen: true, reads: false
        )
        let client = try Client(baseURL: server.url, transport: HTTP1Transport()) {
            $0.retryPolicy = nil
            $0.timeout = .seconds(20)
        }

        let error = await awaitFailure(client.send(Request<Data>(.post, "answer", body: .data(Data(count: 64 << 20), contentType: "application/octet-stream"))))

        XCTAssertEqual(error?.statusCode, 413, "\(String(describing: error))")
    }

    // MARK: Pause and bounded memory

    /// Pausing stops the reading: the server's writes find no room (TCP holds it back) until the
    /// call resumes; then the whole body arrives.
    func test_aPausedDownload_holdsTheServerBack_untilResumed() async throws {
        let size = 64 << 20
        let server = try ScriptedServer(response: Array("HTTP/1.1 200 OK\r\nContent-Length: \(size)\r\n\r\n".utf8), streamed: size)
        // Held until paused, so that the pause comes before the transfer starts, whenever this
        // test's thread runs.
        let release = DispatchSemaphore(value: 0)
        let client = try Client(baseURL: server.url, transport: HTTP1Transport()) {
            $0.retryPolicy = nil
            $0.maximumResponseSize = size
            $0.adapters = [HeldAdapter(release: release)]
        }

        let download = client.send(Request<Data>(.get, "answer"))
        download.pause()
        release.signal()
        await fulfillment(of: [server.heldBack], timeout: 30)

        XCTAssertLessThan(server.sent.value, size / 2, "the server was held back well before the end")
        XCTAssertEqual(download.state, .paused)
        download.resume()
        let body = try await download.value
        XCTAssertEqual(body.count, size)
    }

    /// 1 GiB a gzip body inflates to, under the default 32 MiB limit: refused when the inflated
    /// bytes pass the limit, the process's peak resident memory growing by far less than that.
    func test_aGzipBomb_isStoppedAtTheLimit_inBoundedMemory() async throws {
        #if os(Linux)
        let bomb = GzipBomb.zeros(count: 1 << 30)
        let server = try ScriptedServer(response: Array("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\n\r\n".utf8) + bomb)
        let client = try Client(baseURL: server.url, transport: HTTP1Transport()) { $0.retryPolicy = nil }
        let before = try PeakMemory.reset()

        let error = await awaitFailure(client.send(Request<Data>(.get, "answer")))

        XCTAssertEqual(error?.kind, .responseTooLarge, "\(String(describing: error))")
        let growth = try PeakMemory.read() - before
        XCTAssertLessThan(growth, 64 << 20, "peak resident memory grew by \(growth >> 20) MiB")
        #endif
    }

    // MARK: Names, addresses and timeouts

    /// `localhost` resolves to ::1 and 127.0.0.1; DemoServer listens on the second only, so the
    /// first refuses and the next address is tried.
    func test_aNameWithSeveralAddresses_triesEachInTurn() async throws {
        var configuration = client.configuration
        configuration.baseURL = URL(string: "\(server.baseURL.scheme!)://localhost:\(server.port)/")!
        let overLocalhost = try Client(configuration: configuration, transport: HTTP1Transport())

        let order = try await overLocalhost.send(Request<Order>(.get, "orders/1")).value

        XCTAssertEqual(order.id, 1)
    }

    /// A server that stalls in the middle of its response meets the request's timeout.
    func test_aServerStallingMidAnswer_meetsTheTimeout() async throws {
        var configuration = client.configuration
        configuration.timeout = .milliseconds(300)
        configuration.retryPolicy = nil
        let impatient = try Client(configuration: configuration, transport: HTTP1Transport())

        let error = await awaitFailure(impatient.send(Request<Order>(.get, "orders/1", headers: ["X-Demo-Fault": "stall-after=40"])))

        XCTAssertEqual(error?.urlError?.code, .timedOut, "\(String(describing: error))")
    }

    // MARK: Malformed responses

    /// Each response, sent by a raw server exactly as written, fails its call with a transport
    /// error saying what was wrong; the process goes on serving.
    func test_everyMalformedAnswer_failsItsCallWithASentence() async throws {
        let table: [(answer: String, code: URLError.Code, says: String)] = [
            ("HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n", .badServerResponse, "Content-Length"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd", .badServerResponse, "Content-Length"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", .badServerResponse, "Transfer-Encoding"),
            ("HTTP/1.1 200 OK\r\nX-Folded: a\r\n b\r\nContent-Length: 0\r\n\r\n", .badServerResponse, "fold"),
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n", .badServerResponse, "chunk"),
            ("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n", .badServerResponse, "101"),
            ("HTTP/2.0 200 OK\r\n\r\n", .badServerResponse, "HTTP/1"),
            ("SSH-2.0-OpenSSH_9.2\r\n", .badServerResponse, "status line"),
            ("HTTP/1.1 200 OK\r\nContent-Le", .networkConnectionLost, "head"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc", .networkConnectionLost, "3 of 10"),
        ]
        for row in table {
            let server = try ScriptedServer(response: Array(row.answer.utf8))
            let client = try Client(baseURL: server.url, transport: HTTP1Transport()) { $0.retryPolicy = nil }

            let error = await awaitFailure(client.send(Request<Data>(.get, "answer")))

            XCTAssertEqual(error?.kind, .transport, "\(row.answer.debugDescription): \(String(describing: error))")
            XCTAssertEqual(error?.urlError?.code, row.code, "\(row.answer.debugDescription): \(String(describing: error))")
            XCTAssertTrue("\(error.map { "\($0)" } ?? "")".contains(row.says), "\(row.answer.debugDescription): \(String(describing: error))")
        }
    }

    /// A declared length of 2^63 - 1 is refused from the head, before a byte of the body is kept.
    func test_aContentLengthOfInt64Max_isRefusedFromTheHead() async throws {
        let server = try ScriptedServer(response: Array("HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775807\r\n\r\nabc".utf8), holdsOpen: true)
        let client = try Client(baseURL: server.url, transport: HTTP1Transport()) { $0.retryPolicy = nil }

        #if os(Linux)
        let before = try PeakMemory.reset()
        #endif

        let error = await awaitFailure(client.send(Request<Data>(.get, "answer")))

        XCTAssertEqual(error?.kind, .responseTooLarge, "\(String(describing: error))")
        #if os(Linux)
        let growth = try PeakMemory.read() - before
        XCTAssertLessThan(growth, 64 << 20, "peak resident memory grew by \(growth >> 20) MiB")
        #endif
    }

    /// A cookie set by a redirect is kept by the transport and sent with the next request to its
    /// host (on another port: cookies are not kept apart by port, RFC 6265 §8.5); one for
    /// another site is refused; a transport that keeps no cookies sends none.
    func test_aCookieSetByARedirect_goesBackToItsHost_unlessTurnedOff() async throws {
        let echo = server.baseURL.appendingPathComponent("_demo/echo").absoluteString
        let answer = "HTTP/1.1 302 Found\r\nSet-Cookie: session=c1; Path=/; HttpOnly\r\n"
            + "Set-Cookie: tracker=t; Domain=example.com\r\nLocation: \(echo)\r\nContent-Length: 0\r\n\r\n"
        for keepsCookies in [true, false] {
            let scripted = try ScriptedServer(response: Array(answer.utf8))
            var settings = HTTP1Transport.Configuration()
            settings.keepsCookies = keepsCookies
            let client = try Client(baseURL: scripted.url, transport: HTTP1Transport(configuration: settings)) {
                $0.retryPolicy = nil
            }

            let received = try await client.send(Request<Echo>(.get, "answer")).value

            XCTAssertEqual(received.path, "/_demo/echo")
            XCTAssertEqual(received.headers["cookie"], keepsCookies ? "session=c1" : nil, "keepsCookies: \(keepsCookies)")
        }
    }

    /// The error `promise` fails with, as an `APIError`.
    private func awaitFailure<T>(_ promise: Promise<T>) async -> APIError? {
        do {
            _ = try await promise.value
            return nil
        } catch {
            return error as? APIError
        }
    }
}
