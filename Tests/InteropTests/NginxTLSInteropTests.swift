@testable import BatonWire
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `HTTP1Transport` against nginx over https, its certificate (for localhost and 127.0.0.1)
/// issued by a private certificate authority that `.ci/interop` made: trusted as an additional
/// root, refused without it, and pinned, rightly and wrongly.
final class NginxTLSInteropTests: XCTestCase {
    private var nginx: URL!
    private var log: NginxAccessLog!
    private var token: String!

    override func setUpWithError() throws {
        nginx = try Interop.nginxTLS()
        log = try Interop.nginxLog()
        token = Interop.token()
    }

    /// A transport that trusts the private authority (unless `trusting` is false) and pins
    /// `pins` for localhost.
    private func transport(trusting: Bool = true, pins: [String] = []) throws -> HTTP1Transport {
        var tls = TLSConfiguration()
        if trusting { try tls.trustRoots(contentsOf: try Interop.nginxCA()) }
        try tls.pin("localhost", publicKeySHA256: pins)
        var configuration = HTTP1Transport.Configuration()
        configuration.tls = tls
        return HTTP1Transport(configuration: configuration)
    }

    /// That nginx received no request of this test but the marker sent now, over a connection
    /// opened after the refused one closed: nginx, one worker, logs requests as they end, so a
    /// request of the refused connection would be logged before the marker's.
    private func assertNginxReceivedOnlyTheMarker(file: StaticString = #filePath, line: UInt = #line) async throws {
        _ = try await transport().send(nginx.interop("small.txt", token: token, ["marker": "1"]))
        let entries = try await log.entries(for: token, count: 1)
        XCTAssertEqual(entries.map(\.uri), ["/small.txt?t=\(token!)&marker=1"], "nothing but the marker reached nginx", file: file, line: line)
    }

    func test_https_withThePrivateAuthorityTrusted_getsTheFile_overTLS13_withALPN() async throws {
        let events = ConnectionEvents()

        let response = try await transport().send(nginx.interop("small.txt", token: token), events: events)

        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.body, try Data(contentsOf: try Interop.nginxRoot().appending(path: "small.txt")))
        let security = try XCTUnwrap(events.all.first { $0.kind == .opened }?.security)
        XCTAssertTrue(security.hasPrefix("TLSv1.3, "), security)
        XCTAssertTrue(security.hasSuffix(", http/1.1"), "nginx agreed ALPN http/1.1: \(security)")
        let entry = try await log.entries(for: token, count: 1)[0]
        XCTAssertEqual(entry.https, "on")
    }

    func test_https_withoutThePrivateAuthority_failsSayingItIsNotTrusted_andSendsNothing() async throws {
        let transport = try transport(trusting: false)

        let error = await refusal { try await transport.send(nginx.interop("small.txt", token: token)) }

        XCTAssertEqual(error?.code, .serverCertificateHasUnknownRoot, "\(String(describing: error))")
        XCTAssertTrue("\(String(describing: error))".contains("was issued by an authority that is not trusted"), "\(String(describing: error))")
        try await assertNginxReceivedOnlyTheMarker()
    }

    func test_https_withNginxsOwnKeyPinned_getsTheFile() async throws {
        let response = try await transport(pins: [try Interop.nginxPin()]).send(nginx.interop("small.txt", token: token))

        XCTAssertEqual(response.statusCode, 200)
    }

    func test_https_withTheAuthoritysKeyPinned_getsTheFile() async throws {
        let response = try await transport(pins: [try Interop.nginxCAPin()]).send(nginx.interop("small.txt", token: token))

        XCTAssertEqual(response.statusCode, 200)
    }

    /// A pin for some other key: the handshake verifies, the pin does not match, and the call
    /// fails saying so before a byte of the request goes out.
    func test_https_withAWrongPin_failsSayingNoPinnedKeyWasPresented_andSendsNothing() async throws {
        let otherKey = Interop.sha256(Data("a key nginx does not have".utf8))
        let transport = try transport(pins: [otherKey])

        let error = await refusal { try await transport.send(nginx.interop("small.txt", token: token)) }

        XCTAssertEqual(error?.code, .serverCertificateUntrusted, "\(String(describing: error))")
        let text = "\(String(describing: error))"
        XCTAssertTrue(text.contains("holds none of the public keys pinned for localhost"), text)
        XCTAssertTrue(text.contains("sha256/\(try Interop.nginxPin())"), "names the key it presented: \(text)")
        XCTAssertTrue(text.contains("nothing was sent"), text)
        try await assertNginxReceivedOnlyTheMarker()
    }
}
