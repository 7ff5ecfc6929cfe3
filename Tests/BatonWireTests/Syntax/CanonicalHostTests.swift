@testable import BatonWire
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// One spelling per host: what every part of the transport, the cookie jar, the pins and the
/// origin checks name a host by, and the hosts refused because they could be read as two.
final class CanonicalHostTests: XCTestCase {
    private func canonical(_ url: String) throws -> String {
        try CanonicalHost(XCTUnwrap(URL(string: url))).name
    }

    private func refusal(_ url: String, file: StaticString = #filePath, line: UInt = #line) -> String? {
        guard let parsed = URL(string: url) else { return "unparsed" }
        do {
            let host = try CanonicalHost(parsed)
            XCTFail("\(url) was taken as \(host.name)", file: file, line: line)
            return nil
        } catch {
            XCTAssertEqual(error.code, .badURL, file: file, line: line)
            return error.detail
        }
    }

    func test_theSameHostWrittenManyWays_hasOneSpelling() throws {
        let table: [(String, String)] = [
            ("http://Example.COM/", "example.com"),
            ("http://example.com./", "example.com"),
            ("http://%65xample.com/", "example.com"),
            ("http://a%2Eb.example/", "a.b.example"),
            ("http://127.0.0.1/", "127.0.0.1"),
            ("http://127.1/", "127.0.0.1"),
            ("http://0x7f.0.0.1/", "127.0.0.1"),
            ("http://2130706433/", "127.0.0.1"),
            ("http://0177.0.0.1/", "127.0.0.1"),
            ("http://[::1]:8080/", "::1"),
            ("http://[0:0::1]/", "::1"),
            ("http://[0000:0000:0000:0000:0000:0000:0000:0001]/", "::1"),
            ("http://[2001:DB8::A]/", "2001:db8::a"),
            ("http://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1"),
            ("http://xn--bcher-kva.de/", "xn--bcher-kva.de"),
            ("http://under_score.example/", "under_score.example"),
        ]
        for (url, expected) in table {
            XCTAssertEqual(try canonical(url), expected, url)
        }
    }

    func test_aNULInTheHost_isRefused_sayingSo() {
        let detail = refusal("http://127.0.0.1%00.a.good.test:8080/")
        XCTAssertEqual(detail?.contains("NUL"), true, detail ?? "")
        XCTAssertEqual(detail?.contains("127.0.0.1\\u{0}.a.good.test"), true, "the NUL is shown escaped: \(detail ?? "")")
    }

    func test_hostsThatCouldBeReadAsTwo_areRefused() {
        let table: [(String, String)] = [
            ("http://a%0d%0ab.example/", "control character"),
            ("http://a%09b.example/", "control character"),
            ("http://a%20b.example/", "space"),
            ("http://a%2Fb.example/", "\"/\""),
            ("http://a%40b.example/", "\"@\""),
            ("http://a%5Cb.example/", "\"\\\""),
            ("http://a%25b.example/", "%"),
            ("http://[fe80::1%25eth0]/", "%"),
            ("http://a..b/", "empty label"),
            ("http://1.2.3.4.5/", "IPv4"),
            ("http://999.1.1.1/", "IPv4"),
            ("http://a.b.0x/", "IPv4"),
            ("http://b%C3%BCcher.de/", "xn--"),
            ("http://\(String(repeating: "a", count: 64)).example/", "63"),
            ("http://\(Array(repeating: "abcdefgh", count: 32).joined(separator: "."))/", "253"),
        ]
        for (url, expected) in table {
            let detail = refusal(url) ?? ""
            XCTAssertTrue(detail.contains(expected), "\(url): \(detail)")
        }
    }

    func test_aURLWithoutAHost_isRefused() {
        XCTAssertEqual(refusal("file:///etc/hosts")?.contains("has no host"), true)
    }

    func test_theURIForm_bracketsAnIPv6Address_only() throws {
        XCTAssertEqual(try CanonicalHost(XCTUnwrap(URL(string: "http://[0:0::1]/"))).uriForm, "[::1]")
        XCTAssertEqual(try CanonicalHost(XCTUnwrap(URL(string: "http://Host/"))).uriForm, "host")
        XCTAssertEqual(try CanonicalHost(parsing: "[0:0::1]").name, "::1")
        XCTAssertEqual(try CanonicalHost(parsing: "API.example.com.").name, "api.example.com")
    }

    func test_originsCompareCanonicalHosts_andAHostRefusedHasNoOrigin() {
        XCTAssertTrue(Origin.same(URL(string: "http://127.1:8080/a"), URL(string: "http://127.0.0.1:8080/b")))
        XCTAssertTrue(Origin.same(URL(string: "http://[0:0::1]/a"), URL(string: "http://[::1]:80/b")))
        XCTAssertNil(Origin(URL(string: "http://127.0.0.1%00.a.good.test/")))
        XCTAssertFalse(Origin.same(URL(string: "http://127.0.0.1%00.a.good.test/"), URL(string: "http://127.0.0.1%00.a.good.test/")))
    }

    func test_aPinForAnotherSpellingOfTheHost_isKeptUnderItsOneSpelling() throws {
        var tls = TLSConfiguration()
        let pin = "sha256/" + Data(repeating: 7, count: 32).base64EncodedString()
        try tls.pin("[0:0::1]", publicKeySHA256: [pin])
        try tls.pin("API.Example.com.", publicKeySHA256: [pin])
        XCTAssertEqual(Set(tls.pinnedPublicKeys.keys), ["::1", "api.example.com"])
        XCTAssertThrowsError(try tls.pin("a\u{0}b.example", publicKeySHA256: [pin]))
    }

    func test_theCookieJar_neitherSetsNorSendsForAHostRefused() throws {
        let jar = CookieJar()
        let bad = try XCTUnwrap(URL(string: "http://127.0.0.1%00.a.good.test/"))
        jar.store(setCookieValues: ["id=1"], from: bad)
        XCTAssertNil(jar.cookieHeader(for: bad))
        XCTAssertNil(jar.cookieHeader(for: try XCTUnwrap(URL(string: "http://127.0.0.1/"))))
    }

    func test_theCookieJar_seesOneHostInEverySpelling() throws {
        let jar = CookieJar()
        jar.store(setCookieValues: ["id=1"], from: try XCTUnwrap(URL(string: "http://127.1/")))
        XCTAssertEqual(jar.cookieHeader(for: try XCTUnwrap(URL(string: "http://127.0.0.1/"))), "id=1")
        jar.store(setCookieValues: ["v6=1"], from: try XCTUnwrap(URL(string: "http://[0:0::1]/")))
        XCTAssertEqual(jar.cookieHeader(for: try XCTUnwrap(URL(string: "http://[::1]/"))), "v6=1")
    }

    func test_aHostReadAgain_isReadTheSameWay_andOneRefusedStaysRefused() throws {
        for _ in 0..<3 {
            XCTAssertEqual(try canonical("http://Example.COM./a"), "example.com")
            XCTAssertEqual(try canonical("http://0x7f.1/"), "127.0.0.1")
            XCTAssertNotNil(refusal("http://127.0.0.1%00.a.good.test/"))
        }
    }

    func test_hostsRememberedForSpeed_areBounded_andEachStillReadRight() throws {
        for number in 0..<(CanonicalHost.recentCapacity * 3) {
            XCTAssertEqual(try canonical("http://Host\(number).Example/"), "host\(number).example")
            XCTAssertLessThanOrEqual(CanonicalHost.recent.value.count, CanonicalHost.recentCapacity)
        }
        XCTAssertEqual(try canonical("http://HOST0.example/"), "host0.example", "a host forgotten is read again")
    }
}
