@testable import BatonClient
import BatonWire
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// How proxies are named, read from the environment as curl reads it, and matched against
/// `no_proxy`'s exceptions.
final class ProxySettingsTests: XCTestCase {
    private typealias Proxy = HTTP1Transport.Proxy
    private typealias ProxySettings = HTTP1Transport.ProxySettings

    func test_aProxyURL_isReadAsCurlReadsIt() throws {
        let plain = try Proxy("proxy.internal:3128")
        XCTAssertEqual(plain.kind, .http)
        XCTAssertEqual(plain.server, "proxy.internal:3128")
        XCTAssertEqual(try Proxy("http://Proxy.Internal").port, Proxy.defaultPort, "no port: curl's 1080")
        XCTAssertEqual(try Proxy("socks5h://[::1]:1080/").server, "[::1]:1080")
        let signed = try Proxy("socks5://al%40ice:p%3Ass@10.0.0.1:1080")
        XCTAssertEqual(signed.kind, .socks5)
        XCTAssertEqual(signed.username, "al@ice")
        XCTAssertEqual(signed.password, "p:ss")
        XCTAssertEqual(signed.description, "socks5://al@ice:<redacted>@10.0.0.1:1080")
        var dumped = ""
        dump(HTTP1Transport.ProxySettings(all: signed), to: &dumped)
        XCTAssertFalse(dumped.contains("p:ss"), dumped)
        XCTAssertTrue(dumped.contains("al@ice"), dumped)
        XCTAssertFalse(String(reflecting: signed).contains("p:ss"))
        XCTAssertEqual(try Proxy("http://alice:secret@proxy:3128").authorization, "Basic " + Data("alice:secret".utf8).base64EncodedString())
    }

    func test_aURLThatNamesNoUsableProxy_isRefused_withoutItsPassword() {
        let refusals: [(String, URLError.Code, String)] = [
            ("https://user:topsecret@proxy:443", .unsupportedURL, "not over TLS (https) or socks4"),
            ("socks4://proxy:1080", .unsupportedURL, "has the scheme socks4"),
            ("http://proxy:3128/proxy.pac", .badURL, "has a path or a query"),
            ("http://:3128", .badURL, "has no host"),
            ("http://proxy:0", .badURL, "outside 1...65535"),
        ]
        for (url, code, words) in refusals {
            XCTAssertThrowsError(try Proxy(url), url) { error in
                XCTAssertEqual((error as? URLError)?.code, code, url)
                XCTAssertTrue("\(error)".contains(words), "\(url): \(error)")
                XCTAssertFalse("\(error)".contains("topsecret"), "\(error)")
            }
        }
        XCTAssertThrowsError(try Proxy(.http, host: "proxy", port: 3128, username: "a:b"), "Basic cannot carry a colon in the username")
        XCTAssertThrowsError(try Proxy(.socks5h, host: "proxy", port: 1080, username: String(repeating: "u", count: 256)), "RFC 1929: 255 bytes at most")
        XCTAssertThrowsError(try Proxy(.http, host: "proxy", port: 3128, password: "lonely"), "a password needs a username")
    }

    func test_theEnvironment_isReadAsCurlReadsIt() throws {
        let https = URL(string: "https://api.example.com/")!
        let http = URL(string: "http://api.example.com/")!
        XCTAssertNil(try ProxySettings.environment([:]).proxy(for: https))
        // HTTP_PROXY (upper case) is never read: a CGI server sets it from a request's header.
        XCTAssertNil(try ProxySettings.environment(["HTTP_PROXY": "http://evil:1"]).proxy(for: http))
        XCTAssertEqual(try ProxySettings.environment(["http_proxy": "http://p:1"]).proxy(for: http)?.server, "p:1")
        XCTAssertNil(try ProxySettings.environment(["http_proxy": "http://p:1"]).proxy(for: https), "http's proxy is not https's")
        XCTAssertEqual(try ProxySettings.environment(["HTTPS_PROXY": "http://upper:1"]).proxy(for: https)?.server, "upper:1")
        XCTAssertEqual(try ProxySettings.environment(["https_proxy": "http://lower:1", "HTTPS_PROXY": "http://upper:1"]).proxy(for: https)?.server, "lower:1")
        let all = ProxySettings.environment(["ALL_PROXY": "socks5h://all:1", "https_proxy": "http://own:1"])
        XCTAssertEqual(try all.proxy(for: http)?.description, "socks5h://all:1", "all_proxy for a scheme without its own")
        XCTAssertEqual(try all.proxy(for: https)?.server, "own:1")
        XCTAssertNil(try ProxySettings.environment(["https_proxy": " "]).proxy(for: https), "an empty value is none")
        let except = ProxySettings.environment(["all_proxy": "http://p:1", "no_proxy": " .example.com , other.test", "NO_PROXY": "ignored.test"])
        XCTAssertEqual(except.exceptions, [".example.com", "other.test", "localhost", "127.0.0.0/8", "::1"])
        XCTAssertNil(try except.proxy(for: http))
        XCTAssertNotNil(try except.proxy(for: URL(string: "http://ignored.test/")!), "no_proxy wins over NO_PROXY")
        XCTAssertNil(try except.proxy(for: URL(string: "http://localhost:8080/")!), "this machine is never proxied from the environment")
    }

    /// A variable naming a proxy Baton cannot use fails its scheme's requests; setting that
    /// scheme's proxy in code replaces it.
    func test_anUnusableVariable_failsItsScheme_untilReplaced() throws {
        var settings = ProxySettings.environment(["https_proxy": "https://proxy:443"])
        XCTAssertThrowsError(try settings.route(scheme: "https", host: CanonicalHost(parsing: "api.example.com"), port: nil)) { error in
            XCTAssertTrue("\(error)".contains("the environment's https_proxy cannot be used"), "\(error)")
        }
        XCTAssertNil(try settings.route(scheme: "http", host: CanonicalHost(parsing: "api.example.com"), port: nil))
        XCTAssertThrowsError(try settings.proxy(for: URL(string: "https://api.example.com/")!), "proxy(for:) says so too")
        settings.https = nil
        XCTAssertNil(try settings.route(scheme: "https", host: CanonicalHost(parsing: "api.example.com"), port: nil))
    }

    func test_exceptions_matchNames_ports_addresses_andRanges() throws {
        var settings = ProxySettings(all: try Proxy("http://p:1"))
        func direct(_ url: String) throws -> Bool { try settings.proxy(for: URL(string: url)!) == nil }
        settings.exceptions = ["example.com", ".internal", "api.test:8443", "10.0.0.0/8", "192.168.1.7", "fd00::/8", "[::1]:8080", "bogus/x", ""]
        XCTAssertTrue(try direct("http://example.com/"))
        XCTAssertTrue(try direct("http://www.Example.COM./"))
        XCTAssertFalse(try direct("http://notexample.com/"))
        XCTAssertTrue(try direct("http://db.internal/"))
        XCTAssertTrue(try direct("https://api.test:8443/"))
        XCTAssertFalse(try direct("https://api.test/"), "another port")
        XCTAssertTrue(try direct("http://10.200.3.4/"))
        XCTAssertFalse(try direct("http://11.0.0.1/"))
        XCTAssertTrue(try direct("http://192.168.1.7/"))
        XCTAssertFalse(try direct("http://192.168.1.8/"))
        XCTAssertTrue(try direct("http://[fd12::1]/"))
        XCTAssertFalse(try direct("http://[fe80::1]/"))
        XCTAssertTrue(try direct("http://[::1]:8080/"))
        XCTAssertFalse(try direct("http://[::1]:8081/"))
        XCTAssertFalse(try direct("http://bogus/"), "an entry of no form matches nothing")
        settings.exceptions = ["*"]
        XCTAssertTrue(try direct("https://anything.example/"))
        settings.exceptions = ["10.0.0.0/33", "10.0.0.0/8/8"]
        XCTAssertFalse(try direct("http://10.0.0.1/"), "a prefix past the address's bits is no range")
    }
}
