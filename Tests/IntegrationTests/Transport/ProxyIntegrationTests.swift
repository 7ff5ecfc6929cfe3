@testable import BatonSupport
@testable import BatonClient
@testable import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `HTTP1Transport` through real proxies on loopback (``TestProxy``): `https` through `CONNECT`
/// with TLS and pins for the origin, `http` in absolute form, SOCKS5 with and without
/// credentials, credentials sent to the proxy alone, refusals naming the proxy, and `no_proxy`.
final class ProxyIntegrationTests: XCTestCase {
    private static let servers = Locked<(plain: DemoServer, secure: DemoServer)?>(nil)

    /// DemoServer over `http` and over `https` (the loopback test identity), shared by the class.
    private func servers() throws -> (plain: DemoServer, secure: DemoServer) {
        try Self.servers.withLock { servers in
            if let servers { return servers }
            let started = (try DemoServer.start(configuration: .init(idleTimeout: 5)),
                           try DemoServer.start(configuration: .init(idleTimeout: 5, tls: .loopback)))
            servers = started
            return started
        }
    }

    override class func tearDown() {
        if let servers = servers.withLock({ $0 }) {
            servers.plain.stop()
            servers.secure.stop()
        }
        servers.withLock { $0 = nil }
        super.tearDown()
    }

    private var proxies: [TestProxy] = []

    override func tearDown() {
        for proxy in proxies { proxy.stop() }
        proxies = []
        super.tearDown()
    }

    private func startProxy(_ kind: TestProxy.Kind, credentials: (String, String)? = nil) throws -> TestProxy {
        let proxy = try TestProxy(kind, credentials: credentials)
        proxies.append(proxy)
        return proxy
    }

    /// A transport through `proxies`, trusting the test root, with `configure` applied.
    private func transport(_ proxies: HTTP1Transport.ProxySettings,
                           configure: (inout HTTP1Transport.Configuration) throws -> Void = { _ in }) throws -> HTTP1Transport {
        var configuration = HTTP1Transport.Configuration()
        configuration.proxies = proxies
        try configuration.tls.trustRoots(pem: DemoServer.TLS.loopbackRootCertificatePEM)
        try configure(&configuration)
        return HTTP1Transport(configuration: configuration)
    }

    // MARK: HTTP proxies

    func test_https_throughCONNECT_withTheOriginsPin_arrives_andTheConnectionIsPooled() async throws {
        let origin = try servers().secure
        let proxy = try startProxy(.http)
        let transport = try transport(.init(all: .init(proxy.url()))) {
            try $0.tls.pin("127.0.0.1", publicKeySHA256: ["sha256/" + TestCertificates.pin("localhost")])
        }
        let events = Locked<[ConnectionEvent]>([])
        let client = try testClient(origin.baseURL, transport, monitors: [ConnectionRecorder { event in events.withLock { $0.append(event) } }])
        for _ in 0..<3 { _ = try await client.send(Request<Data>(.get, "health")).value }
        XCTAssertEqual(proxy.asked, ["CONNECT 127.0.0.1:\(origin.port)"], "one tunnel, kept alive")
        let opened = try XCTUnwrap(events.value.first { $0.kind == .opened })
        XCTAssertEqual(opened.proxy, "127.0.0.1:\(proxy.port)")
        XCTAssertEqual(opened.server, "127.0.0.1:\(origin.port)")
        XCTAssertTrue(opened.description.contains("via 127.0.0.1:\(proxy.port) opened"), opened.description)
        XCTAssertEqual(events.value.filter { $0.kind == .reused }.count, 2)
    }

    func test_aWrongPin_throughCONNECT_isRefused_asTheOrigins() async throws {
        let origin = try servers().secure
        let proxy = try startProxy(.http)
        let other = try TestCertificates.pin("other-key")
        let transport = try transport(.init(all: .init(proxy.url()))) { try $0.tls.pin("127.0.0.1", publicKeySHA256: [other]) }
        let (code, sentence) = try await XCTUnwrapAsync(healthFailure(of: origin.baseURL, transport))
        XCTAssertEqual(code, .serverCertificateUntrusted, sentence)
        XCTAssertTrue(sentence.contains("holds none of the public keys pinned for 127.0.0.1"), "the origin's key is checked: \(sentence)")
        XCTAssertEqual(proxy.asked, ["CONNECT 127.0.0.1:\(origin.port)"])
    }

    func test_http_throughAnHTTPProxy_goesInAbsoluteForm() async throws {
        let origin = try servers().plain
        let proxy = try startProxy(.http)
        let transport = try transport(.init(http: .init(proxy.url())))
        let echo: Echo = try await testClient(origin.baseURL, transport).send(Demo.echo()).value
        XCTAssertEqual(echo.path, "/_demo/echo")
        XCTAssertEqual(proxy.asked, ["GET http://127.0.0.1:\(origin.port)/_demo/echo"])
    }

    func test_proxyCredentials_goToTheProxyAlone_andAreAccepted() async throws {
        let (plain, secure) = try servers()
        let proxy = try startProxy(.http, credentials: ("alice", "p@ss:word"))
        let settings = HTTP1Transport.ProxySettings(all: try .init(proxy.url(username: "alice", password: "p%40ss%3Aword")))
        XCTAssertFalse("\(settings.https!)".contains("word"), "the password is never printed")
        let transport = try transport(settings)
        let tunnelled: Echo = try await testClient(secure.baseURL, transport).send(Demo.echo()).value
        XCTAssertNil(tunnelled.headers["proxy-authorization"], "inside the tunnel, the origin never sees them")
        _ = try await testClient(plain.baseURL, transport).send(Demo.echo()).value
        let expected = "Basic " + Data("alice:p@ss:word".utf8).base64EncodedString()
        XCTAssertEqual(proxy.authorizations, [expected, expected])
        XCTAssertEqual(proxy.asked, ["CONNECT 127.0.0.1:\(secure.port)", "GET http://127.0.0.1:\(plain.port)/_demo/echo"])
    }

    func test_refusedOrMissingProxyCredentials_failWithASentenceNamingTheProxy() async throws {
        let (plain, secure) = try servers()
        let proxy = try startProxy(.http, credentials: ("alice", "right"))
        let server = "127.0.0.1:\(proxy.port)"
        for origin in [secure, plain] {
            let wrong = try transport(.init(all: .init(proxy.url(username: "alice", password: "wrong-secret"))))
            let (code, sentence) = try await XCTUnwrapAsync(healthFailure(of: origin.baseURL, wrong))
            XCTAssertEqual(code, .userAuthenticationRequired, sentence)
            XCTAssertTrue(sentence.contains("the proxy \(server) refused the credentials given for it"), sentence)
            XCTAssertFalse(sentence.contains("wrong-secret"), sentence)

            let none = try transport(.init(all: .init(proxy.url())))
            let (_, asking) = try await XCTUnwrapAsync(healthFailure(of: origin.baseURL, none))
            XCTAssertTrue(asking.contains("the proxy \(server) asks for credentials"), asking)
        }
        XCTAssertEqual(proxy.asked, ["407", "407", "407", "407"])
    }

    /// A `401` to `CONNECT` can only be the proxy's (tinyproxy 1.11 refuses credentials so): read
    /// as its refusal of them.
    func test_a401ToCONNECT_isTheProxyRefusingItsCredentials() async throws {
        let proxy = try ScriptedServer(response: Array("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\n\r\n".utf8))
        let transport = try transport(.init(all: .init("http://alice:wrong@127.0.0.1:\(proxy.port)")))
        let (code, sentence) = try await XCTUnwrapAsync(healthFailure(of: try XCTUnwrap(URL(string: "https://api.example.com/")), transport))
        XCTAssertEqual(code, .userAuthenticationRequired, sentence)
        XCTAssertTrue(sentence.contains("the proxy 127.0.0.1:\(proxy.port) refused the credentials given for it (401 Unauthorized)"), sentence)
    }

    /// A proxy that accepts the connection and never answers `CONNECT` meets the connect
    /// timeout, named.
    func test_aProxyThatNeverOpensTheTunnel_meetsTheConnectTimeout() async throws {
        let origin = try servers().secure
        let silent = try SilentListener()
        let transport = try transport(.init(all: .init("http://127.0.0.1:\(silent.port)"))) { $0.connectTimeout = .milliseconds(300) }
        let (code, sentence) = try await XCTUnwrapAsync(healthFailure(of: origin.baseURL, transport))
        XCTAssertEqual(code, .timedOut, sentence)
        XCTAssertTrue(sentence.contains("the proxy 127.0.0.1:\(silent.port) did not open the tunnel within 0.3 seconds"), sentence)
    }

    /// Bytes a proxy sends after its `200` to `CONNECT` would be the origin's before it was
    /// asked anything: refused, rather than taken for the origin's.
    func test_bytesAfterTheAnswerToCONNECT_areRefused() async throws {
        let proxy = try ScriptedServer(response: Array("HTTP/1.1 200 Connection Established\r\n\r\nHTTP/1.1 200 OK\r\n".utf8), holdsOpen: true)
        let transport = try transport(.init(all: .init("http://127.0.0.1:\(proxy.port)")))
        let (code, sentence) = try await XCTUnwrapAsync(healthFailure(of: try XCTUnwrap(URL(string: "https://api.example.com/")), transport))
        XCTAssertEqual(code, .badServerResponse, sentence)
        XCTAssertTrue(sentence.contains("the proxy 127.0.0.1:\(proxy.port) sent bytes after its answer to CONNECT"), sentence)
    }

    // MARK: SOCKS5

    func test_socks5h_withoutCredentials_carriesHTTPAndHTTPS_theNameResolvedByTheProxy() async throws {
        let (plain, secure) = try servers()
        let proxy = try startProxy(.socks5)
        let transport = try transport(.init(all: .init("socks5h://127.0.0.1:\(proxy.port)")))
        let named = try XCTUnwrap(URL(string: "https://localhost:\(secure.port)/"))
        _ = try await testClient(named, transport).send(Request<Data>(.get, "health")).value
        _ = try await testClient(plain.baseURL, transport).send(Request<Data>(.get, "health")).value
        XCTAssertEqual(proxy.asked, ["SOCKS5 name localhost", "SOCKS5 address 127.0.0.1"])
    }

    func test_socks5_resolvesTheNameHere() async throws {
        let plain = try servers().plain
        let proxy = try startProxy(.socks5)
        let transport = try transport(.init(all: .init("socks5://127.0.0.1:\(proxy.port)")))
        let named = try XCTUnwrap(URL(string: "http://localhost:\(plain.port)/"))
        _ = try await testClient(named, transport).send(Request<Data>(.get, "health")).value
        XCTAssertEqual(proxy.asked.count, 1)
        XCTAssertTrue(proxy.asked.first?.hasPrefix("SOCKS5 address ") == true, "\(proxy.asked)")
    }

    func test_socks5_withCredentials_accepted_refused_andMissing() async throws {
        let plain = try servers().plain
        let proxy = try startProxy(.socks5, credentials: ("bob", "hunter2"))
        let right = try transport(.init(all: .init("socks5h://bob:hunter2@127.0.0.1:\(proxy.port)")))
        _ = try await testClient(plain.baseURL, right).send(Request<Data>(.get, "health")).value

        let wrong = try transport(.init(all: .init("socks5h://bob:nope-secret@127.0.0.1:\(proxy.port)")))
        let (code, sentence) = try await XCTUnwrapAsync(healthFailure(of: plain.baseURL, wrong))
        XCTAssertEqual(code, .userAuthenticationRequired, sentence)
        XCTAssertTrue(sentence.contains("the SOCKS5 proxy 127.0.0.1:\(proxy.port) refused the username and password"), sentence)
        XCTAssertFalse(sentence.contains("nope-secret"), sentence)

        let none = try transport(.init(all: .init("socks5h://127.0.0.1:\(proxy.port)")))
        let (_, asking) = try await XCTUnwrapAsync(healthFailure(of: plain.baseURL, none))
        XCTAssertTrue(asking.contains("the SOCKS5 proxy 127.0.0.1:\(proxy.port) asks for credentials"), asking)
        XCTAssertEqual(proxy.asked, ["SOCKS5 address 127.0.0.1", "SOCKS5 refused credentials", "SOCKS5 no acceptable method"])
    }

    func test_aSOCKS5ProxyThatCannotConnect_saysWhyInRFC1928sWords() async throws {
        let proxy = try startProxy(.socks5)
        var listener: SilentListener? = try SilentListener()
        let port = try XCTUnwrap(listener?.port)
        // Nothing listens there once the listener is gone.
        listener = nil
        let transport = try transport(.init(all: .init("socks5h://127.0.0.1:\(proxy.port)")))
        let (code, sentence) = try await XCTUnwrapAsync(healthFailure(of: try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)/")), transport))
        XCTAssertEqual(code, .cannotConnectToHost, sentence)
        XCTAssertTrue(sentence.contains("could not connect to 127.0.0.1:\(port) (connection refused)"), sentence)
    }

    // MARK: Which requests go through a proxy

    func test_noProxy_sendsItsHostsDirectly() async throws {
        let plain = try servers().plain
        let proxy = try startProxy(.http)
        var settings = HTTP1Transport.ProxySettings.environment(["http_proxy": proxy.url(), "no_proxy": "example.com"])
        XCTAssertEqual(settings.exceptions, ["example.com", "localhost", "127.0.0.0/8", "::1"], "loopback is never proxied from the environment")
        _ = try await testClient(plain.baseURL, transport(settings)).send(Request<Data>(.get, "health")).value
        XCTAssertEqual(proxy.asked, [], "127.0.0.1 went directly")

        settings.exceptions = ["example.com", "127.0.0.1:1"]
        _ = try await testClient(plain.baseURL, transport(settings)).send(Request<Data>(.get, "health")).value
        XCTAssertEqual(proxy.asked.count, 1, "an exception for another port does not apply")

        for exception in ["127.0.0.1", "127.0.0.0/8", "127.0.0.1:\(plain.port)", "*"] {
            settings.exceptions = [exception]
            _ = try await testClient(plain.baseURL, transport(settings)).send(Request<Data>(.get, "health")).value
            XCTAssertEqual(proxy.asked.count, 1, "\(exception) went directly")
        }
    }

    /// A proxy the environment names that Baton cannot speak to fails the request, never
    /// letting it go around the proxy.
    func test_anUnusableProxyInTheEnvironment_failsTheRequest_withNothingSent() async throws {
        let plain = try servers().plain
        var settings = HTTP1Transport.ProxySettings.environment(["all_proxy": "https://user:topsecret@proxy.invalid:443"])
        settings.exceptions = []
        let before = plain.stats.requests["GET /health"]
        let (code, sentence) = try await XCTUnwrapAsync(healthFailure(of: plain.baseURL, transport(settings)))
        XCTAssertEqual(code, .unsupportedURL, sentence)
        XCTAssertTrue(sentence.contains("the environment's all_proxy cannot be used"), sentence)
        XCTAssertTrue(sentence.contains("nothing was sent"), sentence)
        XCTAssertFalse(sentence.contains("topsecret"), sentence)
        XCTAssertEqual(plain.stats.requests["GET /health"], before)
    }
}
