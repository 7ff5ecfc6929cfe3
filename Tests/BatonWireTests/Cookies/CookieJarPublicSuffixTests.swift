@testable import BatonWire
import Foundation
import XCTest

/// The cookie jar's `Domain` attribute against the Public Suffix List: a domain that anyone can
/// register under (ICANN's `co.uk`, a host's `github.io`) is refused, so a tenant's cookie never
/// reaches another tenant; naming the host itself makes a host-only cookie; IP addresses match
/// no domain.
final class CookieJarPublicSuffixTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// A jar holding what `values` set for a request to `from`.
    private func jar(_ values: String..., from: String) -> CookieJar {
        let jar = CookieJar()
        jar.store(setCookieValues: values, from: URL(string: from)!, now: now)
        return jar
    }

    private func header(_ jar: CookieJar, _ to: String) -> String? {
        jar.cookieHeader(for: URL(string: to)!, now: now)
    }

    func test_aDomainThatIsAPrivateSuffix_isRefused() {
        for (domain, host) in [("github.io", "alice.github.io"), ("herokuapp.com", "app.herokuapp.com"), ("pages.dev", "project.pages.dev"),
                               (".GitHub.io", "alice.github.io")] {
            let jar = jar("a=1; Domain=\(domain)", from: "https://\(host)/")
            XCTAssertEqual(jar.count, 0, domain)
            XCTAssertNil(header(jar, "https://eve.\(domain.lowercased().trimmingCharacters(in: ["."]))/"), domain)
        }
    }

    func test_aTenantsOwnDomain_goesToItsSubdomains_andNoOtherTenant() {
        let jar = jar("a=1; Domain=alice.github.io", from: "https://alice.github.io/")
        XCTAssertEqual(header(jar, "https://alice.github.io/"), "a=1")
        XCTAssertEqual(header(jar, "https://docs.alice.github.io/"), "a=1")
        XCTAssertNil(header(jar, "https://eve.github.io/"))
        XCTAssertNil(header(jar, "https://github.io/"))
    }

    func test_aDomainThatIsAnICANNSuffix_isRefused_andOneLabelBelowIsKept() {
        XCTAssertEqual(jar("a=1; Domain=co.uk", from: "http://shop.example.co.uk/").count, 0)
        XCTAssertEqual(jar("a=1; Domain=uk", from: "http://shop.example.co.uk/").count, 0)
        XCTAssertEqual(jar("a=1; Domain=ide.kyoto.jp", from: "http://b.ide.kyoto.jp/").count, 0)
        let kept = jar("a=1; Domain=example.co.uk", from: "http://shop.example.co.uk/")
        XCTAssertEqual(header(kept, "http://www.example.co.uk/"), "a=1")
        XCTAssertNil(header(kept, "http://other.co.uk/"))
    }

    func test_aWildcardRule_refusesEveryNameUnderIt_butItsException() {
        // `*.ck`: foo.ck is a public suffix; `!www.ck`: www.ck is a site.
        XCTAssertEqual(jar("a=1; Domain=foo.ck", from: "http://a.foo.ck/").count, 0)
        XCTAssertEqual(jar("a=1; Domain=ck", from: "http://a.foo.ck/").count, 0)
        let exception = jar("a=1; Domain=www.ck", from: "http://a.www.ck/")
        XCTAssertEqual(header(exception, "http://b.www.ck/"), "a=1")
        XCTAssertNil(header(exception, "http://b.foo.ck/"))
    }

    func test_aPublicSuffixNamingTheHostItself_makesAHostOnlyCookie() {
        // RFC 6265 §5.3 step 5.
        let jar = jar("a=1; Domain=github.io", from: "https://github.io/")
        XCTAssertEqual(header(jar, "https://github.io/"), "a=1")
        XCTAssertNil(header(jar, "https://alice.github.io/"))
        XCTAssertEqual(jar.allCookies.map(\.isHostOnly), [true])
    }

    func test_aTrailingDot_doesNotHideAPublicSuffix() {
        XCTAssertEqual(jar("a=1; Domain=com.", from: "http://example.com./").count, 0)
        XCTAssertEqual(jar("a=1; Domain=github.io.", from: "https://alice.github.io./").count, 0)
        let kept = jar("a=1; Domain=example.com.", from: "http://www.example.com./")
        XCTAssertEqual(header(kept, "http://api.example.com./"), "a=1")
    }

    func test_anIPAddressHost_matchesNoDomain_whatTheListSaysOfItsLabels() {
        // 0.1 is no public suffix by the list (its last label, 1, is under no rule), yet an
        // address's cookie never goes to another address.
        for (attribute, host) in [("0.1", "127.0.0.1"), ("168.1.1", "192.168.1.1"), ("1.1", "192.168.1.1"), ("0:1", "[::1]")] {
            XCTAssertEqual(jar("a=1; Domain=\(attribute)", from: "http://\(host)/").count, 0, attribute)
        }
        let own = jar("a=1; Domain=192.168.1.1", from: "http://192.168.1.1/")
        XCTAssertEqual(own.allCookies.map(\.isHostOnly), [true])
        XCTAssertNil(header(own, "http://10.192.168.1.1/"))
    }

    func test_theSiteOfACookie_isItsRegistrableDomain_orTheNameItself() {
        XCTAssertEqual(CookieJar.site(of: "www.example.co.uk"), "example.co.uk")
        XCTAssertEqual(CookieJar.site(of: "a.alice.github.io"), "alice.github.io")
        XCTAssertEqual(CookieJar.site(of: "github.io"), "github.io")
        XCTAssertEqual(CookieJar.site(of: "localhost"), "localhost")
        XCTAssertEqual(CookieJar.site(of: "192.168.1.1"), "192.168.1.1")
        XCTAssertEqual(CookieJar.site(of: "::1"), "::1")
    }
}
