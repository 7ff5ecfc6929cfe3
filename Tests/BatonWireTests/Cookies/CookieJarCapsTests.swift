@testable import BatonWire
import Foundation
import XCTest

/// The cookie jar's bounds: at most 180 cookies per site (a registrable domain with all its
/// hosts), that site's least recently used evicted first, and 3,000 in all, evicted from the site
/// holding the most: a site with many hosts or names crowds out its own cookies, not another's.
final class CookieJarCapsTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func store(_ jar: CookieJar, _ values: [String], from: String) {
        jar.store(setCookieValues: values, from: URL(string: from)!, now: now)
    }

    /// The names `jar` sends to `to`, in the order sent.
    private func names(_ jar: CookieJar, _ to: String) -> [String] {
        jar.cookies(for: URL(string: to)!, now: now).map(\.name)
    }

    /// How many cookies the jar holds for each site.
    private func sites(_ jar: CookieJar) -> [String: Int] {
        Dictionary(grouping: jar.allCookies, by: { CookieJar.site(of: $0.domain) }).mapValues(\.count)
    }

    func test_theCaps_areThoseOfBrowsers() {
        XCTAssertEqual(CookieJar.maximumCookiesPerSite, 180)
        XCTAssertEqual(CookieJar.maximumCookies, 3000)
    }

    func test_aSiteWithFiveThousandSubdomains_cannotEvictAnotherSitesSessionCookie() {
        let jar = CookieJar()
        store(jar, ["session=s3cr3t; Secure; HttpOnly"], from: "https://bank.example.com/login")
        for index in 0..<5000 {
            store(jar, ["t\(index)=x", "d\(index)=x; Domain=evil.net"], from: "http://s\(index).evil.net/")
        }
        XCTAssertEqual(jar.cookieHeader(for: URL(string: "https://bank.example.com/")!, now: now), "session=s3cr3t")
        XCTAssertEqual(sites(jar), ["example.com": 1, "evil.net": CookieJar.maximumCookiesPerSite])
        // What the attacker kept is what it set last.
        XCTAssertEqual(names(jar, "http://s4999.evil.net/"), (4910..<4999).map { "d\($0)" } + ["t4999", "d4999"])
    }

    func test_aSitesCookies_areEvictedLeastRecentlyUsedFirst_acrossItsHosts() {
        let jar = CookieJar()
        store(jar, ["other=1"], from: "http://other.com/")
        store(jar, (0..<90).map { "a\($0)=v" }, from: "http://a.example.com/")
        store(jar, (0..<90).map { "b\($0)=v" }, from: "http://b.example.com/")
        // Sending a's cookies and setting b0 again are uses: b1, b2, … are now the least recent.
        XCTAssertEqual(names(jar, "http://a.example.com/").count, 90)
        store(jar, ["b0=again"], from: "http://b.example.com/")
        store(jar, (0..<10).map { "c\($0)=v" }, from: "http://c.example.com/")

        XCTAssertEqual(sites(jar), ["other.com": 1, "example.com": 180])
        XCTAssertEqual(names(jar, "http://a.example.com/"), (0..<90).map { "a\($0)" })
        XCTAssertEqual(names(jar, "http://b.example.com/"), ["b0"] + (11..<90).map { "b\($0)" })
        XCTAssertEqual(names(jar, "http://c.example.com/"), (0..<10).map { "c\($0)" })
        XCTAssertEqual(names(jar, "http://other.com/"), ["other"])
    }

    func test_aSitesExpiredCookies_goBeforeItsLiveOnes() {
        let jar = CookieJar()
        store(jar, ["old=1"], from: "http://www.example.com/")
        // Another host of the site: its expired cookies are dropped by no look-up of www's.
        store(jar, (0..<179).map { "c\($0)=v; Max-Age=10" }, from: "http://api.example.com/")
        jar.store(setCookieValues: ["new=1"], from: URL(string: "http://www.example.com/")!, now: now + 11)
        XCTAssertEqual(jar.count, 2)
        XCTAssertEqual(jar.cookies(for: URL(string: "http://www.example.com/")!, now: now + 11).map(\.name), ["old", "new"])
    }

    func test_theTotalCap_evictsFromTheSitesHoldingTheMost_notFromASmallerOne() {
        let jar = CookieJar()
        // The session is the least recently used cookie of all, and its site the smallest.
        store(jar, ["session=1"], from: "https://bank.example/")
        // Twenty tenants of github.io are twenty sites: 3,600 cookies.
        for tenant in 0..<20 {
            store(jar, (0..<180).map { "c\($0)=v" }, from: "https://t\(tenant).github.io/")
        }
        XCTAssertEqual(jar.count, CookieJar.maximumCookies)
        XCTAssertEqual(names(jar, "https://bank.example/"), ["session"])
        let tenants = sites(jar).filter { $0.key.hasSuffix(".github.io") }
        XCTAssertEqual(tenants.count, 20)
        XCTAssertEqual(Set(tenants.values), [149, 150], "2,999 cookies shared by 20 sites")
    }

    func test_theJarKeepsAtMostThreeThousandCookies_eachSiteKeepingItsMostRecent() {
        let jar = CookieJar()
        for host in 0..<70 {
            store(jar, (0..<50).map { "c\($0)=v" }, from: "http://h\(host).example/")
        }
        XCTAssertEqual(jar.count, CookieJar.maximumCookies)
        // 3,000 shared by 70 sites: 42 or 43 each, the last set.
        for host in 0..<70 {
            let kept = names(jar, "http://h\(host).example/")
            XCTAssertTrue((42...43).contains(kept.count), "h\(host): \(kept.count)")
            XCTAssertEqual(kept, (50 - kept.count..<50).map { "c\($0)" }, "h\(host)")
        }
    }
}
