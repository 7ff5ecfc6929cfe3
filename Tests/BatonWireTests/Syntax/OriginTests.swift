@testable import BatonWire
import Foundation
import XCTest

/// One origin rule for every check that asks "the same origin?": redirects, the authenticator
/// and the image loader.
final class OriginTests: XCTestCase {
    private func same(_ a: String?, _ b: String?) -> Bool {
        Origin.same(a.flatMap(URL.init(string:)), b.flatMap(URL.init(string:)))
    }

    func test_schemeAndHostCompareWithoutCase_andADefaultPortWrittenOrNot() {
        XCTAssertTrue(same("HTTP://Host:80/a", "http://host/"))
        XCTAssertTrue(same("https://h:443/a", "https://h/b"))
        XCTAssertTrue(same("HTTP://API.Example/a", "http://api.example/b"))
        XCTAssertEqual(Origin(URL(string: "HTTP://Host:80/a")), Origin(URL(string: "http://host/")))
    }

    func test_anotherPortOrScheme_isAnotherOrigin() {
        XCTAssertFalse(same("http://h/a", "http://h:8080/a"))
        XCTAssertFalse(same("http://h/a", "https://h/a"))
        XCTAssertFalse(same("http://h:443/a", "https://h/a"))
        XCTAssertFalse(same("http://h/a", "http://g/a"))
    }

    func test_aURLWithoutAHost_isOfNoOrigin() {
        XCTAssertFalse(same(nil, "http://h/a"))
        XCTAssertFalse(same("http://h/a", nil))
        XCTAssertFalse(same(nil, nil))
        XCTAssertNil(Origin(URL(string: "/relative/path")))
    }

    func test_theRoot_leavesOutTheDefaultPort_andBracketsAnIPv6Address() {
        XCTAssertEqual(Origin(URL(string: "HTTP://Host:80/a/b?c"))?.root?.absoluteString, "http://host/")
        XCTAssertEqual(Origin(URL(string: "https://h:8443/a"))?.root?.absoluteString, "https://h:8443/")
        XCTAssertEqual(Origin(URL(string: "http://[::1]:8080/a"))?.root?.absoluteString, "http://[::1]:8080/")
    }
}
