@testable import Baton
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// RedirectPolicy: credentials stay on their origin, 307/308 keep the body, `.never` stops.
final class RedirectPolicyClientTests: XCTestCase {
    private let credentials = [
        "Authorization": "Bearer t",
        "Cookie": "session=abc",
        "Proxy-Authorization": "Basic eDp5",
        "X-Session-Token": "s-1",
        "Accept": "application/json",
    ]

    private func request(_ url: String, headers: [String: String] = [:]) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// The header names of the request `policy` makes for a redirect from `from` to `to`.
    private func redirectedHeaderNames(
        _ policy: RedirectPolicy = RedirectPolicy(sensitiveHeaders: ["x-session-token"]),
        from: String, to: String
    ) -> [String]? {
        let original = request(from, headers: credentials)
        let proposed = request(to, headers: credentials)
        return policy.redirect(proposed, from: original)?
            .allHTTPHeaderFields.map { $0.keys.sorted() }
    }

    // MARK: Leaving the origin

    func test_crossHost_stripsCredentialsAndConfiguredHeaders() {
        XCTAssertEqual(redirectedHeaderNames(from: "https://api.example/a", to: "https://cdn.example/a"), ["Accept"])
    }

    func test_crossPort_stripsCredentialsAndConfiguredHeaders() {
        XCTAssertEqual(redirectedHeaderNames(from: "http://h:8080/a", to: "http://h:8081/a"), ["Accept"])
    }

    func test_crossScheme_stripsCredentialsAndConfiguredHeaders() {
        XCTAssertEqual(redirectedHeaderNames(from: "http://h:8443/a", to: "https://h:8443/a"), ["Accept"])
    }

    func test_httpsToHTTP_stripsCredentials() {
        XCTAssertEqual(redirectedHeaderNames(RedirectPolicy(), from: "https://h/a", to: "http://h/a"), ["Accept", "X-Session-Token"])
    }

    func test_configuredSensitiveHeaders_matchWithoutCase() {
        let policy = RedirectPolicy(sensitiveHeaders: ["X-SESSION-TOKEN"])
        XCTAssertEqual(redirectedHeaderNames(policy, from: "https://a.example/", to: "https://b.example/"), ["Accept"])
    }

    func test_alwaysSensitiveHeaders_matchWithoutCase() {
        let headers = ["authorization": "Bearer t", "COOKIE": "c", "Accept": "*/*"]
        let proposed = request("https://b.example/", headers: headers)
        let redirected = RedirectPolicy.default.redirect(proposed, from: request("https://a.example/", headers: headers))
        XCTAssertEqual(redirected?.allHTTPHeaderFields?.keys.sorted(), ["Accept"])
    }

    func test_defaultPolicy_stripsOnlyTheAlwaysSensitiveHeaders() {
        XCTAssertEqual(redirectedHeaderNames(.default, from: "https://a.example/", to: "https://b.example/"), ["Accept", "X-Session-Token"])
    }

    // MARK: Staying on the origin

    func test_sameOrigin_keepsEveryHeader() {
        XCTAssertEqual(
            redirectedHeaderNames(from: "https://h/a", to: "https://h/b?x=1"),
            ["Accept", "Authorization", "Cookie", "Proxy-Authorization", "X-Session-Token"]
        )
    }

    func test_sameOrigin_keepsTheCredentialValues() {
        let redirected = RedirectPolicy.default.redirect(
            request("https://h/b", headers: credentials), from: request("https://h/a", headers: credentials)
        )
        XCTAssertEqual(redirected?.value(forHTTPHeaderField: "Authorization"), "Bearer t")
    }

    func test_sameOrigin_httpDefaultPortIsEightyWrittenOrNot() {
        XCTAssertTrue(RedirectPolicy.sameOrigin(URL(string: "http://h/a"), URL(string: "http://h:80/b")))
    }

    func test_sameOrigin_httpsDefaultPortIs443WrittenOrNot() {
        XCTAssertTrue(RedirectPolicy.sameOrigin(URL(string: "https://h:443/a"), URL(string: "https://h/b")))
    }

    func test_sameOrigin_hostAndSchemeCompareWithoutCase() {
        XCTAssertTrue(RedirectPolicy.sameOrigin(URL(string: "HTTP://API.Example/a"), URL(string: "http://api.example/b")))
    }

    func test_sameOrigin_differentPortsAreDifferentOrigins() {
        XCTAssertFalse(RedirectPolicy.sameOrigin(URL(string: "http://h/a"), URL(string: "http://h:8080/a")))
    }

    func test_sameOrigin_httpAndHTTPSOnTheirDefaultPortsAreDifferentOrigins() {
        XCTAssertFalse(RedirectPolicy.sameOrigin(URL(string: "http://h/a"), URL(string: "https://h/a")))
    }

    func test_sameOrigin_missingURLIsNotTheSameOrigin() {
        XCTAssertFalse(RedirectPolicy.sameOrigin(nil, URL(string: "http://h/a")))
    }

    // MARK: 307 and 308 with a body (followed by the transport itself)

    private func response(_ status: Int, location: String?, url: String = "https://h/a") -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: location.map { ["Location": $0] } ?? [:], url: URL(string: url))
    }

    func test_bodyRedirect_307_keepsMethodAndTargetsTheLocation() {
        var original = request("https://h/a", headers: credentials)
        original.httpMethod = "POST"
        let next = RedirectPolicy.default.bodyRedirect(of: original, by: response(307, location: "https://h/b"))
        XCTAssertEqual(next?.url?.absoluteString, "https://h/b")
        XCTAssertEqual(next?.httpMethod, "POST")
        XCTAssertEqual(next?.value(forHTTPHeaderField: "Authorization"), "Bearer t")
    }

    func test_bodyRedirect_308_resolvesARelativeLocationAgainstTheResponseURL() {
        let next = RedirectPolicy.default.bodyRedirect(of: request("https://h/a/b"), by: response(308, location: "../c", url: "https://h/a/b"))
        XCTAssertEqual(next?.url?.absoluteString, "https://h/c")
    }

    func test_bodyRedirect_toAnotherOrigin_stripsCredentials() {
        let next = RedirectPolicy(sensitiveHeaders: ["x-session-token"])
            .bodyRedirect(of: request("https://a.example/", headers: credentials), by: response(307, location: "https://b.example/"))
        XCTAssertEqual(next?.allHTTPHeaderFields?.keys.sorted(), ["Accept"])
    }

    func test_bodyRedirect_isNilFor302AndWithoutLocation() {
        XCTAssertNil(RedirectPolicy.default.bodyRedirect(of: request("https://h/a"), by: response(302, location: "https://h/b")))
        XCTAssertNil(RedirectPolicy.default.bodyRedirect(of: request("https://h/a"), by: response(307, location: nil)))
    }

    func test_bodyRedirect_isNilWhenRedirectsAreNotFollowed() {
        XCTAssertNil(RedirectPolicy.never.bodyRedirect(of: request("https://h/a"), by: response(307, location: "https://h/b")))
    }

    func test_redirect_keepsTheProposedURL() {
        let redirected = RedirectPolicy.default.redirect(request("https://h/b?x=1"), from: request("https://h/a"))
        XCTAssertEqual(redirected?.url?.absoluteString, "https://h/b?x=1")
    }

    // MARK: Never

    func test_never_returnsNil() {
        XCTAssertNil(RedirectPolicy.never.redirect(request("https://h/b"), from: request("https://h/a")))
    }

    func test_followsFalse_returnsNil() {
        let policy = RedirectPolicy(follows: false)
        XCTAssertNil(policy.redirect(request("https://h/b"), from: request("https://h/a")))
    }
}
