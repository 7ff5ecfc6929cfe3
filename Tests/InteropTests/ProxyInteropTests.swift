@testable import BatonWire
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `HTTP1Transport` through proxies no one here wrote, in front of nginx: tinyproxy (`CONNECT`
/// for https, absolute form for http; open, and asking for Basic credentials) and pproxy's SOCKS5.
final class ProxyInteropTests: XCTestCase {
    private var log: NginxAccessLog!
    private var token: String!

    override func setUpWithError() throws {
        log = try Interop.nginxLog()
        token = Interop.token()
    }

    /// A transport through `proxy` for every scheme, trusting nginx's private authority and
    /// pinning `pins` for localhost.
    private func transport(through proxy: String, pins: [String] = []) throws -> HTTP1Transport {
        var configuration = HTTP1Transport.Configuration()
        configuration.proxies = .init(all: try .init(proxy))
        try configuration.tls.trustRoots(contentsOf: try Interop.nginxCA())
        try configuration.tls.pin("localhost", publicKeySHA256: pins)
        return HTTP1Transport(configuration: configuration)
    }

    func test_https_throughTinyproxysCONNECT_withNginxsKeyPinned_getsTheFile_overOneTunnel() async throws {
        let nginx = try Interop.nginxTLS()
        let transport = try transport(through: try Interop.proxy(), pins: [try Interop.nginxPin()])
        let events = ConnectionEvents()
        for _ in 0..<2 {
            let response = try await transport.send(nginx.interop("small.txt", token: token), events: events)
            XCTAssertEqual(response.statusCode, 200)
        }
        let entries = try await log.entries(for: token, count: 2)
        XCTAssertEqual(entries.map(\.https), ["on", "on"])
        XCTAssertEqual(Set(entries.map(\.connection)).count, 1, "one tunnel, kept alive")
        let opened = try XCTUnwrap(events.all.first { $0.kind == .opened })
        let proxy = try XCTUnwrap(URL(string: try Interop.proxy()))
        XCTAssertEqual(opened.proxy, "127.0.0.1:\(try XCTUnwrap(proxy.port))")
    }

    func test_https_throughTinyproxy_withAWrongPin_isRefusedForNginx_andSendsNothing() async throws {
        let nginx = try Interop.nginxTLS()
        let other = "sha256/" + Data(repeating: 7, count: 32).base64EncodedString()
        let transport = try transport(through: try Interop.proxy(), pins: [other])
        let error = await refusal { try await transport.send(nginx.interop("small.txt", token: token)) }
        XCTAssertEqual(error?.code, .serverCertificateUntrusted, "\(String(describing: error))")
        XCTAssertTrue("\(String(describing: error))".contains("pinned for localhost"), "\(String(describing: error))")
        XCTAssertEqual(try log.entries(for: token).count, 0, "nothing reached nginx")
    }

    func test_http_throughTinyproxy_inAbsoluteForm() async throws {
        let nginx = try Interop.nginx()
        let response = try await transport(through: try Interop.proxy()).send(nginx.interop("small.txt", token: token))
        XCTAssertEqual(response.statusCode, 200)
        let entries = try await log.entries(for: token, count: 1)
        XCTAssertEqual(entries.map(\.uri), ["/small.txt?t=\(token!)"])
    }

    func test_tinyproxysCredentials_accepted_andRefused_withASentenceNamingIt() async throws {
        let nginx = try Interop.nginxTLS()
        let proxy = try Interop.authenticatingProxy()
        let server = proxy.replacingOccurrences(of: "http://", with: "")
        let signed = proxy.replacingOccurrences(of: "http://", with: "http://\(try Interop.proxyCredentials())@")
        let wrong = proxy.replacingOccurrences(of: "http://", with: "http://alice:wrong-secret@")
        let response = try await transport(through: signed).send(nginx.interop("small.txt", token: token))
        XCTAssertEqual(response.statusCode, 200)

        // tinyproxy 1.11 refuses wrong credentials with 401 (not 407): to CONNECT, only the proxy
        // can have said it, so it is read as the proxy's refusal.
        let refusals = [(wrong, nginx, "refused the credentials given for it (401"), (proxy, nginx, "asks for credentials (407"),
                        (proxy, try Interop.nginx(), "asks for credentials (407")]
        for (url, origin, words) in refusals {
            let transport = try transport(through: url)
            let error = await refusal { try await transport.send(origin.interop("small.txt", token: token, ["refused": "1"])) }
            XCTAssertEqual(error?.code, .userAuthenticationRequired, "\(String(describing: error))")
            XCTAssertTrue("\(String(describing: error))".contains("the proxy \(server) \(words)"), "\(String(describing: error))")
            XCTAssertFalse("\(String(describing: error))".contains("wrong-secret"))
        }
        // Its 401 to a plain request cannot be told from an origin's, and is handed on as the answer.
        let answered = try await transport(through: wrong).send(try Interop.nginx().interop("small.txt", token: token, ["refused": "1"]))
        XCTAssertEqual(answered.statusCode, 401)
        let entries = try await log.entries(for: token, count: 1)
        XCTAssertEqual(entries.map(\.uri), ["/small.txt?t=\(token!)"], "only the signed-in request reached nginx")
    }

    func test_http_and_https_throughPproxysSOCKS5_theNameResolvedByIt() async throws {
        let transport = try transport(through: try Interop.socks(), pins: [try Interop.nginxPin()])
        let secure = try await transport.send(try Interop.nginxTLS().interop("small.txt", token: token))
        let plain = try await transport.send(try Interop.nginx().interop("small.txt", token: token))
        XCTAssertEqual([secure.statusCode, plain.statusCode], [200, 200])
        let entries = try await log.entries(for: token, count: 2)
        XCTAssertEqual(entries.map(\.https).sorted(), ["", "on"])
    }
}
