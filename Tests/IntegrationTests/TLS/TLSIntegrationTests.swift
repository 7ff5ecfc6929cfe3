@testable import Baton
import BatonLocking
import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `HTTP1Transport` over TLS against DemoServer serving `https`: the API's calls with the test
/// root trusted, keep-alive, large bodies both ways, and what the handshake refuses.
final class TLSIntegrationTests: XCTestCase {
    private static let secure = Locked<DemoServer?>(nil)

    /// A DemoServer serving `https` with the loopback test identity, shared by the class.
    private func secureServer() throws -> DemoServer {
        try Self.secure.withLock { server in
            if let server { return server }
            let started = try DemoServer.start(configuration: .init(idleTimeout: 5, tls: .loopback))
            server = started
            return started
        }
    }

    override class func tearDown() {
        secure.withLock { $0 = nil }
        super.tearDown()
    }

    /// A transport trusting the test root, with `configure` applied.
    private func transport(trustingTestRoot: Bool = true, configure: (inout HTTP1Transport.Configuration) throws -> Void = { _ in }) throws -> HTTP1Transport {
        var configuration = HTTP1Transport.Configuration()
        if trustingTestRoot { try configuration.tls.trustRoots(pem: DemoServer.TLS.loopbackRootCertificatePEM) }
        try configure(&configuration)
        return HTTP1Transport(configuration: configuration)
    }

    private func client(_ url: URL, _ transport: HTTP1Transport, monitors: [any ClientMonitor] = []) throws -> Client {
        var configuration = Client.Configuration(baseURL: url)
        configuration.retryPolicy = nil
        configuration.monitors = monitors
        return try Client(configuration: configuration, transport: transport)
    }

    /// The transport failure of calling `GET /health` on `url`: its code and sentence.
    private func failure(of url: URL, _ transport: HTTP1Transport, file: StaticString = #filePath, line: UInt = #line) async throws -> (URLError.Code, String)? {
        do {
            _ = try await client(url, transport).send(Request<Data>(.get, "health")).value
            XCTFail("the call succeeded", file: file, line: line)
            return nil
        } catch let error as APIError {
            guard error.kind == .transport, let code = error.urlError?.code else {
                XCTFail("not a transport failure: \(error)", file: file, line: line)
                return nil
            }
            return (code, error.description)
        }
    }

    func test_theAPI_overTLS_withTheTestRootTrusted() async throws {
        let server = try secureServer()
        XCTAssertEqual(server.baseURL.scheme, "https")
        let events = Locked<[ConnectionEvent]>([])
        var settings = Client.Configuration(baseURL: server.baseURL)
        settings.retryPolicy = nil
        let monitor = ConnectionRecorder { event in events.withLock { $0.append(event) } }
        settings.monitors = [monitor]
        let client = try Client(configuration: settings, transport: transport())
        let tokens: Tokens = try await client.send(Demo.login()).value
        XCTAssertFalse(tokens.token.isEmpty)
        let opened = events.value.filter { $0.kind == .opened }
        XCTAssertEqual(opened.count, 1)
        let security = try XCTUnwrap(opened.first?.security)
        XCTAssertTrue(security.hasPrefix("TLSv1.3, "), security)
        XCTAssertTrue(security.hasSuffix(", http/1.1"), "ALPN agreed http/1.1: \(security)")
    }
}

/// A monitor handing on each connection event.
struct ConnectionRecorder: ClientMonitor {
    let onEvent: @Sendable (ConnectionEvent) -> Void

    func receive(_ event: ClientEvent, from client: Client) {
        if let connection = event.connection { onEvent(connection) }
    }
}
