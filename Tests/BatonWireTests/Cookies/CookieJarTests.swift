@testable import BatonWire
import Foundation
import XCTest

/// HTTP1Transport's cookie jar (RFC 6265): which host, path and scheme each cookie goes back to,
/// the `Domain` attributes refused, expiry and replacement, the size of a cookie, and the values
/// refused because they could break the `Cookie` line. The Public Suffix List's part is in
/// CookieJarPublicSuffixTests, the caps per site and in all in CookieJarCapsTests.
final class CookieJarTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func url(_ text: String) -> URL { URL(string: text)! }

    /// A jar holding what `values` set for a request to `from`.
    private func jar(_ values: String..., from: String = "http://www.example.com/") -> CookieJar {
        let jar = CookieJar()
        jar.store(setCookieValues: values, from: url(from), now: now)
        return jar
    }

    private func header(_ jar: CookieJar, _ to: String, at date: Date? = nil) -> String? {
        jar.cookieHeader(for: url(to), now: date ?? now)
    }

    // MARK: Hosts and domains

    func test_aHostOnlyCookie_goesBackToItsHostAlone() {
        let jar = jar("a=1")
        XCTAssertEqual(header(jar, "http://www.example.com/x"), "a=1")
        XCTAssertEqual(header(jar, "http://WWW.Example.COM:8080/x"), "a=1")
        for other in ["http://example.com/", "http://sub.www.example.com/", "http://www.example.org/", "http://ww.example.com/"] {
            XCTAssertNil(header(jar, other), other)
        }
    }

    func test_aDomainCookie_goesToTheDomainAndItsSubdomains() {
        for attribute in ["example.com", ".example.com", "EXAMPLE.com"] {
            let jar = jar("a=1; Domain=\(attribute)")
            for host in ["example.com", "www.example.com", "a.b.example.com"] {
                XCTAssertEqual(header(jar, "http://\(host)/"), "a=1", "\(attribute) → \(host)")
            }
            for host in ["notexample.com", "example.com.evil.net", "example.org", "com"] {
                XCTAssertNil(header(jar, "http://\(host)/"), "\(attribute) → \(host)")
            }
        }
    }

    func test_suffixTricks_neverReachAnotherSite() {
        // A cookie of evil.com, host-only or domain, never goes to notevil.com, and back.
        let evil = jar("host=1", "domain=2; Domain=evil.com", from: "http://evil.com/")
        XCTAssertEqual(header(evil, "http://evil.com/"), "host=1; domain=2")
        XCTAssertNil(header(evil, "http://notevil.com/"))
        XCTAssertNil(header(evil, "http://evil.com.attacker.net/"))
        let notEvil = jar("a=1; Domain=notevil.com", from: "http://notevil.com/")
        XCTAssertNil(header(notEvil, "http://evil.com/"))
        // notevil.com does not domain-match evil.com: the cookie is refused outright.
        XCTAssertEqual(jar("a=1; Domain=evil.com", from: "http://notevil.com/").count, 0)
    }

    func test_aDomainForAnotherSiteOrAPublicSuffix_isRefused() {
        for attribute in ["other.com", "com", ".com", "sub.www.example.com", "ample.com", "www.example.com.evil.net"] {
            let jar = jar("a=1; Domain=\(attribute)")
            XCTAssertEqual(jar.count, 0, attribute)
            XCTAssertNil(header(jar, "http://www.example.com/"), attribute)
        }
        XCTAssertEqual(jar("a=1; Domain=co.uk", from: "http://shop.co.uk/").count, 0)
        XCTAssertEqual(jar("a=1; Domain=github.com", from: "http://user.github.com/").count, 1)
    }

    func test_aDomainNamingTheHostItself_whenAPublicSuffix_makesAHostOnlyCookie() {
        let jar = jar("a=1; Domain=localhost", from: "http://localhost:8080/")
        XCTAssertEqual(header(jar, "http://localhost/"), "a=1")
        XCTAssertNil(header(jar, "http://sub.localhost/"))
    }

    func test_anIPAddressHost_getsHostOnlyCookies_andNoOtherDomain() {
        let jar = jar("a=1", "b=2; Domain=127.0.0.1", "c=3; Domain=0.0.1", "d=4; Domain=.0.0.1", from: "http://127.0.0.1:9000/")
        XCTAssertEqual(header(jar, "http://127.0.0.1/"), "a=1; b=2")
        XCTAssertNil(header(jar, "http://10.127.0.0.1/"))
        XCTAssertNil(header(jar, "http://127.0.0.2/"))
        XCTAssertEqual(jar.count, 2)

        let v6 = self.jar("a=1", "b=2; Domain=0:1", from: "http://[::1]:9000/")
        XCTAssertEqual(header(v6, "http://[::1]/"), "a=1")
        XCTAssertNil(header(v6, "http://[::2]/"))
        XCTAssertTrue(CookieJar.isIPAddress("127.1"))
        XCTAssertTrue(CookieJar.isIPAddress("0x7f.1"))
        XCTAssertFalse(CookieJar.isIPAddress("example.com"))
    }

    // MARK: Paths and Secure

    func test_theDefaultPath_isTheRequestPathUpToItsLastSlash() {
        let jar = jar("a=1", from: "http://www.example.com/dir/page?x=/y")
        for path in ["/dir", "/dir/", "/dir/page", "/dir/sub/deeper"] {
            XCTAssertEqual(header(jar, "http://www.example.com\(path)"), "a=1", path)
        }
        for path in ["/", "/directory", "/other/dir", "/Dir"] {
            XCTAssertNil(header(jar, "http://www.example.com\(path)"), path)
        }
        XCTAssertEqual(CookieJar.defaultPath(of: url("http://h/page")), "/")
        XCTAssertEqual(CookieJar.defaultPath(of: url("http://h")), "/")
    }

    func test_aPathAttribute_matchesItselfAndBelowItAtASlash() {
        let jar = jar("root=1; Path=/", "api=2; Path=/api", "slash=3; Path=/api/", "relative=4; Path=api", from: "http://h.com/x/y")
        XCTAssertEqual(header(jar, "http://h.com/"), "root=1")
        XCTAssertEqual(header(jar, "http://h.com/api"), "api=2; root=1")
        XCTAssertEqual(header(jar, "http://h.com/api/v1"), "slash=3; api=2; root=1")
        XCTAssertEqual(header(jar, "http://h.com/apiary"), "root=1")
        // A path not starting with "/" falls back on the default path, /x.
        XCTAssertEqual(header(jar, "http://h.com/x/z"), "relative=4; root=1")
    }

    func test_cookies_goLongerPathsFirst_thenEarlierSet() {
        let jar = jar("b=1; Path=/", "a=2; Path=/", "deep=3; Path=/a/b", "mid=4; Path=/a", from: "http://h.com/")
        XCTAssertEqual(header(jar, "http://h.com/a/b/c"), "deep=3; mid=4; b=1; a=2")
    }

    func test_aSecureCookie_goesOverHTTPSOnly_andIsRefusedFromHTTP() {
        let jar = jar("s=1; Secure", "p=2", from: "https://h.com/")
        XCTAssertEqual(header(jar, "https://h.com/"), "s=1; p=2")
        XCTAssertEqual(header(jar, "http://h.com/"), "p=2")
        XCTAssertEqual(self.jar("s=1; Secure", from: "http://h.com/").count, 0)
    }

    func test_prefixedNames_needWhatTheirPrefixDemands() {
        let jar = jar("__Secure-a=1", "__Secure-b=2; Secure", "__Host-c=3; Secure; Path=/", "__Host-d=4; Secure; Path=/; Domain=h.com",
                      "__Host-e=5; Secure", from: "https://h.com/x/y")
        XCTAssertEqual(header(jar, "https://h.com/x/z"), "__Secure-b=2; __Host-c=3")
    }

    // MARK: Expiry and replacement

    func test_maxAge_setsTheExpiry_andWinsOverExpires() {
        let jar = jar("short=1; Max-Age=10", "wins=2; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Max-Age=100",
                      "future=3; Expires=Fri, 01 Jan 2100 00:00:00 GMT", "badAge=4; Max-Age=1x")
        XCTAssertEqual(header(jar, "http://www.example.com/"), "short=1; wins=2; future=3; badAge=4")
        XCTAssertEqual(header(jar, "http://www.example.com/", at: now + 11), "wins=2; future=3; badAge=4")
        XCTAssertEqual(header(jar, "http://www.example.com/", at: now + 101), "future=3; badAge=4")
    }

    func test_anExpiryInThePast_deletesTheCookie() {
        for deletion in ["a=; Max-Age=0", "a=x; Max-Age=-1", "a=x; Expires=Thu, 01 Jan 1970 00:00:00 GMT",
                         "a=x; Expires=Fri, 01 Jan 2100 00:00:00 GMT; Max-Age=0"] {
            let jar = jar("a=1", "b=2")
            jar.store(setCookieValues: [deletion], from: url("http://www.example.com/"), now: now)
            XCTAssertEqual(header(jar, "http://www.example.com/"), "b=2", deletion)
            XCTAssertEqual(jar.count, 1, deletion)
        }
    }

    func test_theSameNameDomainAndPath_replaces_keepingTheFirstCreation() {
        let jar = jar("a=1", "b=1", "a=2")
        XCTAssertEqual(header(jar, "http://www.example.com/"), "a=2; b=1")
        jar.store(setCookieValues: ["a=3; Path=/other", "a=4; Domain=example.com"], from: url("http://www.example.com/"), now: now)
        XCTAssertEqual(header(jar, "http://www.example.com/other"), "a=3; a=2; b=1; a=4")
        XCTAssertEqual(jar.count, 4)
    }

    func test_cookieDates_parseByTheRFCAlgorithm() {
        let expected = Date(timeIntervalSince1970: 784_111_777)  // 1994-11-06 08:49:37 UTC
        for text in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "6 nov 1994 8:49:37"] {
            XCTAssertEqual(CookieDate.parse(text[...]), expected, text)
        }
        for text in ["31 Feb 2020 01:02:03", "1 Jan 1600 00:00:00", "1 Jan 2000 24:00:00", "Jan 2000 00:00:00", "garbage"] {
            XCTAssertNil(CookieDate.parse(text[...]), text)
        }
    }

    // MARK: Parsing and refusals

    func test_attributes_areParsedLeniently() throws {
        let cookie = try XCTUnwrap(SetCookie("  sid = \"abc\" ; HttpOnly ; SameSite=Strict; path=/p ; SECURE; Unknown=1"))
        XCTAssertEqual(cookie.name, "sid")
        XCTAssertEqual(cookie.value, "\"abc\"")
        XCTAssertEqual(cookie.path, "/p")
        XCTAssertTrue(cookie.isHTTPOnly)
        XCTAssertTrue(cookie.isSecure)
        XCTAssertEqual(SetCookie("a=b=c")?.value, "b=c")
        XCTAssertEqual(SetCookie("empty=")?.value, "")
        for refused in ["", "noequals", "=value", " =value", "noequals; Path=/"] {
            XCTAssertNil(SetCookie(refused), refused)
        }
    }

    func test_aValueThatCouldBreakTheLine_isRefused() {
        let jar = jar("a=b\r\nX-Injected: 1", "c=d\ne", "e=f\rg", "n\r\nx=1", "h=i\u{0}j", "k=l\u{7F}", "ok=1;injected=2", "tab=a\tb")
        let header = header(jar, "http://www.example.com/")
        XCTAssertEqual(header, "ok=1; tab=a\tb")
        XCTAssertFalse(header?.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 } ?? true)
    }

    // MARK: Bounds

    func test_aCookieOverFourKibibytes_isRefused() {
        let fits = "a=" + String(repeating: "x", count: 4094)
        XCTAssertEqual(jar(fits).count, 1)
        XCTAssertEqual(jar(fits + "x").count, 0)
        XCTAssertEqual(jar("a=1; Path=/" + String(repeating: "p", count: 4096)).count, 0)
    }
}
