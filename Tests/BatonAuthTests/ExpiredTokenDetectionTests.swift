@testable import BatonClient
@testable import BatonAuth
import TestSupport
import XCTest

/// Which refusals count as an expired token: the `WWW-Authenticate` Bearer challenges.
final class ExpiredTokenDetectionTests: XCTestCase {
    func test_bearerChallenge_readsTheErrorOfEveryBearerChallenge() {
        let rule = ExpiredTokenDetection.bearerChallenge
        func matches(_ header: String, status: Int = 401) -> Bool {
            rule.isExpiredToken(HTTPResponse(statusCode: status, headers: ["WWW-Authenticate": header]))
        }
        XCTAssertTrue(matches(#"Bearer error="invalid_token""#))
        XCTAssertTrue(matches(#"bearer realm="api", error="invalid_token", error_description="expired, sorry""#))
        XCTAssertTrue(matches(#"Basic realm="a, b", Bearer error=invalid_token"#))
        XCTAssertFalse(matches(#"Bearer error="insufficient_scope""#))
        XCTAssertFalse(matches(#"Bearer realm="error=\"invalid_token\"""#))
        XCTAssertFalse(matches(#"Basic error="invalid_token""#))
        XCTAssertFalse(matches("Bearer"))
        XCTAssertFalse(matches("\"\\,=,,"))
        XCTAssertFalse(matches(#"Bearer error="invalid_token""#, status: 403))
    }
}
