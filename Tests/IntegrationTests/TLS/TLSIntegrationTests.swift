@testable import BatonSupport
@testable import BatonClient
@testable import DemoServer
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

    /// `SSL_CERT_FILE` names the system's roots for a transport made while it is set: a root
    /// in that file is trusted with no `trustRoots`.
    func test_SSL_CERT_FILE_namesTheSystemsRoots() async throws {
        let server = try secureServer()
        let bundle = FileManager.default.temporaryDirectory.appendingPathComponent("baton-roots-\(UUID().uuidString).pem")
        try DemoServer.TLS.loopbackRootCertificatePEM.write(to: bundle, atomically: true, encoding: .utf8)
        let earlier = ProcessInfo.processInfo.environment["SSL_CERT_FILE"]
        defer {
            if let earlier { setenv("SSL_CERT_FILE", earlier, 1) } else { unsetenv("SSL_CERT_FILE") }
            try? FileManager.default.removeItem(at: bundle)
        }
        setenv("SSL_CERT_FILE", bundle.path, 1)
        let systemOnly = try transport(trustingTestRoot: false)
        _ = try await testClient(server.baseURL, systemOnly).send(Request<Data>(.get, "health")).value
    }

    func test_aHostName_isVerified_andSentAsSNI() async throws {
        let server = try secureServer()
        let url = URL(string: "https://localhost:\(server.port)/")!
        let before = server.stats
        let health: Data = try await testClient(url, transport()).send(Request<Data>(.get, "health")).value
        XCTAssertEqual(String(decoding: health, as: UTF8.self), #"{"status":"ok"}"#)
        XCTAssertEqual(server.stats.tlsServerNames["localhost"], (before.tlsServerNames["localhost"] ?? 0) + 1, "SNI named the host")

        // An IP address is not sent as a name (RFC 6066).
        let overAddress = try DemoServer.start(configuration: .init(tls: .loopback))
        _ = try await testClient(overAddress.baseURL, transport()).send(Request<Data>(.get, "health")).value
        XCTAssertEqual(overAddress.stats.tlsHandshakes, 1)
        XCTAssertEqual(overAddress.stats.tlsServerNames, [:])
    }

    func test_keepAlive_reusesOneTLSConnection() async throws {
        let server = try DemoServer.start(configuration: .init(tls: .loopback))
        let client = try testClient(server.baseURL, transport())
        for _ in 0..<5 { _ = try await client.send(Request<Data>(.get, "health")).value }
        XCTAssertEqual(server.stats.connectionsAccepted, 1)
    }

    func test_8MiB_downAndUp_arriveIntact() async throws {
        let server = try secureServer()
        let client = try testClient(server.baseURL, transport())
        let size = 8 << 20
        let down: Data = try await client.send(Request<Data>(.get, "health", headers: ["X-Demo-Fault": "body-bytes=\(size)"])).value
        XCTAssertEqual(down.count, size)
        XCTAssertTrue(down == Data(DemoAPI.paddedBody(size)), "the body arrived changed")

        var generator = SystemRandomNumberGenerator()
        var upload = Data(count: size)
        upload.withUnsafeMutableBytes { bytes in
            for index in stride(from: 0, to: size, by: 8) { bytes.storeBytes(of: generator.next() as UInt64, toByteOffset: index, as: UInt64.self) }
        }
        let echo: Echo = try await client.send(Demo.echo(.post, body: .data(upload, contentType: "application/octet-stream"))).value
        XCTAssertEqual(echo.bodyBytes, size)
        XCTAssertEqual(echo.bodySHA256, Fixtures.sha256Hex(upload))
    }

    /// A server that answers before the body is in (413, its length declared too large) is heard
    /// over TLS as over TCP: the response, decrypted while the body was going out, is read first.
    func test_anEarlyAnswer_whileTheBodyGoesOut_isRead() async throws {
        let server = try DemoServer.start(configuration: .init(maxBodyBytes: 1 << 20, tls: .loopback))
        let client = try testClient(server.baseURL, transport())
        let body = Data(count: 8 << 20)
        do {
            _ = try await client.send(Demo.echo(.post, body: .data(body, contentType: "application/octet-stream"))).value
            XCTFail("an 8 MiB body was accepted by a server taking 1 MiB")
        } catch let error as APIError {
            XCTAssertEqual(error.statusCode, 413, "\(error)")
        }
        _ = try await client.send(Request<Data>(.get, "health")).value
    }

    /// A response cut short by a close without `close_notify` fails as cut (its length says so),
    /// and the next call goes out on a new connection.
    func test_anAnswerCutWithoutCloseNotify_failsAsCut() async throws {
        let server = try secureServer()
        let client = try testClient(server.baseURL, transport())
        do {
            _ = try await client.send(Request<Data>(.get, "health", headers: ["X-Demo-Fault": "body-bytes=100000; drop-after=50000"])).value
            XCTFail("a cut answer was taken whole")
        } catch let error as APIError {
            XCTAssertEqual(error.urlError?.code, .networkConnectionLost, "\(error)")
        }
        let health: Data = try await client.send(Request<Data>(.get, "health")).value
        XCTAssertEqual(health.count, 15)
    }

    // MARK: - Refused

    func test_withTheSystemsRootsOnly_theTestCertificateIsNotTrusted() async throws {
        let named = ProcessInfo.processInfo.environment["SSL_CERT_FILE"].flatMap { try? String(contentsOfFile: $0, encoding: .utf8) }
        try XCTSkipIf(named?.contains(DemoServer.TLS.loopbackRootCertificatePEM) == true, "SSL_CERT_FILE names the test root as a system root")
        let server = try secureServer()
        let (code, sentence) = try XCTUnwrapAsync(await healthFailure(of: server.baseURL, transport(trustingTestRoot: false)))
        XCTAssertEqual(code, .serverCertificateHasUnknownRoot)
        XCTAssertTrue(sentence.contains("the certificate of 127.0.0.1:\(server.port) was issued by an authority that is not trusted"), sentence)
    }

    func test_eachBadCertificate_isRefusedWithItsSentence() async throws {
        let cases: [(name: String, code: URLError.Code, says: String)] = [
            ("expired", .serverCertificateHasBadDate, "expired on 2021-01-01 00:00:00 UTC"),
            ("not-yet-valid", .serverCertificateNotYetValid, "is not valid yet: it is valid from 2120-01-01 00:00:00 UTC"),
            ("other-host", .serverCertificateUntrusted, "is for api.example.com and www.example.com, not for 127.0.0.1"),
            ("self-signed", .serverCertificateUntrusted, "is self-signed, and not trusted (trust the certificate itself with TLSConfiguration.trustRoots"),
            ("unknown-ca", .serverCertificateHasUnknownRoot, "was issued by an authority that is not trusted: \"Baton Unknown Root CA\""),
        ]
        for bad in cases {
            let log = Locked<[String]>([])
            let server = try DemoServer.start(configuration: .init(tls: TestCertificates.identity(bad.name), log: { line in log.withLock { $0.append(line) } }))
            let (code, sentence) = try XCTUnwrapAsync(await healthFailure(of: server.baseURL, transport()))
            XCTAssertEqual(code, bad.code, bad.name)
            XCTAssertTrue(sentence.contains("the certificate of 127.0.0.1:\(server.port) \(bad.says)"), "\(bad.name): \(sentence)")
            XCTAssertTrue(server.stats.requests.isEmpty, "\(bad.name): a request reached the server")
            server.stop()
        }
    }

    func test_aHostNameThatIsNotTheCertificates_isRefused() async throws {
        let server = try DemoServer.start(configuration: .init(tls: TestCertificates.identity("other-host")))
        let url = URL(string: "https://localhost:\(server.port)/")!
        let (code, sentence) = try XCTUnwrapAsync(await healthFailure(of: url, transport()))
        XCTAssertEqual(code, .serverCertificateUntrusted)
        XCTAssertTrue(sentence.contains("the certificate of localhost:\(server.port) is for api.example.com and www.example.com, not for localhost"), sentence)
    }

    /// A certificate whose subjectAltName holds entries of every kind (otherName, directoryName,
    /// email, URI): only its DNS name and IP address are read and shown, each as it is.
    func test_aCertificatesOtherKindsOfName_areSkipped_andItsDNSNameAndAddressShown() async throws {
        let server = try DemoServer.start(configuration: .init(tls: TestCertificates.identity("odd-names")))
        defer { server.stop() }
        let itself = try String(contentsOf: TestCertificates.folder.appendingPathComponent("odd-names.pem"), encoding: .utf8)
        let (code, sentence) = try XCTUnwrapAsync(await healthFailure(of: server.baseURL, transport { try $0.tls.trustRoots(pem: itself) }))
        XCTAssertEqual(code, .serverCertificateUntrusted)
        XCTAssertTrue(sentence.contains("the certificate of 127.0.0.1:\(server.port) is for localhost and 192.0.2.7, not for 127.0.0.1"), sentence)
    }

    func test_aPinThatMatches_passes_andOneThatDoesNot_failsWithNothingSent() async throws {
        let server = try DemoServer.start(configuration: .init(tls: .loopback))
        let pinned = try transport { try $0.tls.pin("127.0.0.1", publicKeySHA256: ["sha256/" + TestCertificates.pin("localhost")]) }
        _ = try await testClient(server.baseURL, pinned).send(Request<Data>(.get, "health")).value
        XCTAssertEqual(server.stats.requests["GET /health"], 1)

        let other = try TestCertificates.pin("other-key")
        let wrong = try transport { try $0.tls.pin("127.0.0.1", publicKeySHA256: [other]) }
        let (code, sentence) = try XCTUnwrapAsync(await healthFailure(of: server.baseURL, wrong))
        XCTAssertEqual(code, .serverCertificateUntrusted)
        XCTAssertTrue(sentence.contains("holds none of the public keys pinned for 127.0.0.1"), sentence)
        XCTAssertTrue(sentence.contains("sha256/" + (try TestCertificates.pin("localhost"))), "names the keys presented: \(sentence)")
        XCTAssertTrue(sentence.contains("nothing was sent"), sentence)
        XCTAssertEqual(server.stats.requests["GET /health"], 1, "the refused call reached the server")

        // A pin for another host leaves this one to verification alone.
        let elsewhere = try transport { try $0.tls.pin("api.example.com", publicKeySHA256: [other]) }
        _ = try await testClient(server.baseURL, elsewhere).send(Request<Data>(.get, "health")).value
    }

    func test_aStalledHandshake_meetsTheConnectTimeout() async throws {
        let listener = try SilentListener()
        let url = URL(string: "https://127.0.0.1:\(listener.port)/")!
        let started = ContinuousClock.now
        let (code, sentence) = try XCTUnwrapAsync(await healthFailure(of: url, transport { $0.connectTimeout = .milliseconds(300) }))
        XCTAssertEqual(code, .timedOut)
        XCTAssertTrue(sentence.contains("the TLS handshake with 127.0.0.1:\(listener.port) did not finish within 0.3 seconds"), sentence)
        XCTAssertLessThan(ContinuousClock.now - started, .seconds(30), "hang guard")
    }

    func test_noVersionInCommon_isSaid() async throws {
        var identity = DemoServer.TLS.loopback
        identity.offersTLS13 = false
        let server = try DemoServer.start(configuration: .init(tls: identity))
        let (code, sentence) = try XCTUnwrapAsync(await healthFailure(of: server.baseURL, transport { $0.tls.minimumVersion = .v1_3 }))
        XCTAssertEqual(code, .secureConnectionFailed)
        XCTAssertTrue(sentence.contains("127.0.0.1:\(server.port) and Baton share no TLS version (Baton accepts TLS 1.3 or later)"), sentence)

        // TLS 1.2 is accepted by default.
        let events = Locked<[ConnectionEvent]>([])
        var settings = Client.Configuration(baseURL: server.baseURL)
        settings.monitors = [ConnectionRecorder { event in events.withLock { $0.append(event) } }]
        _ = try await Client(configuration: settings, transport: transport()).send(Request<Data>(.get, "health")).value
        XCTAssertEqual(events.value.first { $0.kind == .opened }?.security?.hasPrefix("TLSv1.2, "), true)
    }

    func test_aPlainHTTPServer_isSaidNotToSpeakTLS() async throws {
        let plain = try DemoServer.start()
        let url = URL(string: "https://127.0.0.1:\(plain.port)/")!
        let (code, sentence) = try XCTUnwrapAsync(await healthFailure(of: url, transport()))
        XCTAssertEqual(code, .secureConnectionFailed)
        XCTAssertTrue(sentence.contains("127.0.0.1:\(plain.port)"), sentence)
        XCTAssertTrue(sentence.contains("did not answer in TLS") || sentence.contains("closed the connection during the TLS handshake"), sentence)
    }

    func test_httpToAnHTTPSServer_isSaidToMaybeHaveTheWrongScheme() async throws {
        let server = try secureServer()
        let url = URL(string: "http://127.0.0.1:\(server.port)/")!
        let (code, sentence) = try XCTUnwrapAsync(await healthFailure(of: url, transport()))
        XCTAssertEqual(code, .networkConnectionLost)
        XCTAssertTrue(sentence.contains("the server closed the connection without answering (a server that speaks only https does so to a plain http request: is the URL's scheme right?)"), sentence)
    }

    func test_cancellingDuringTheHandshake_closesTheConnectionAtOnce() async throws {
        let listener = try SilentListener()
        let url = URL(string: "https://127.0.0.1:\(listener.port)/")!
        // A minute to connect: a cancel that did not reach the handshake would wait it out.
        let call = try testClient(url, transport { $0.connectTimeout = .seconds(60) }).send(Request<Data>(.get, "health"))
        let connection = try XCTUnwrap(listener.acceptOne(timeout: .seconds(30)))
        defer { Posix.closeDescriptor(connection) }
        let hello = try XCTUnwrap(listener.read(from: connection, timeout: .seconds(30)))
        XCTAssertGreaterThan(hello, 0, "the client's hello")

        call.cancel()
        XCTAssertEqual(listener.read(from: connection, timeout: .seconds(30)), 0, "the client closed the connection")
    }
}
