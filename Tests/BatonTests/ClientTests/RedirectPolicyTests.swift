@testable import Baton
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
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
        from: String, to: String, statusCode: Int = 302
    ) -> [String]? {
        let original = request(from, headers: credentials)
        let proposed = request(to, headers: credentials)
        return policy.redirect(proposed, from: original, statusCode: statusCode, body: nil)?
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
        let redirected = RedirectPolicy.default.redirect(proposed, from: request("https://a.example/", headers: headers), statusCode: 302, body: nil)
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
            request("https://h/b", headers: credentials), from: request("https://h/a", headers: credentials), statusCode: 301, body: nil
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

    // MARK: Bodies

    func test_307_reattachesADataBody() {
        let body = Data("payload".utf8)
        let redirected = RedirectPolicy.default.redirect(request("https://h/b"), from: request("https://h/a"), statusCode: 307, body: .data(body))
        XCTAssertEqual(redirected?.httpBody, body)
    }

    func test_308_reattachesADataBody() {
        let body = Data("payload".utf8)
        let redirected = RedirectPolicy.default.redirect(request("https://h/b"), from: request("https://h/a"), statusCode: 308, body: .data(body))
        XCTAssertEqual(redirected?.httpBody, body)
    }

    func test_302_doesNotAttachTheBody() {
        let redirected = RedirectPolicy.default.redirect(
            request("https://h/b"), from: request("https://h/a"), statusCode: 302, body: .data(Data("payload".utf8))
        )
        XCTAssertNotNil(redirected)
        XCTAssertNil(redirected?.httpBody)
    }

    func test_303_doesNotAttachTheBody() {
        let redirected = RedirectPolicy.default.redirect(
            request("https://h/b"), from: request("https://h/a"), statusCode: 303, body: .data(Data("payload".utf8))
        )
        XCTAssertNil(redirected?.httpBody)
    }

    func test_redirect_keepsTheProposedURL() {
        let redirected = RedirectPolicy.default.redirect(request("https://h/b?x=1"), from: request("https://h/a"), statusCode: 302, body: nil)
        XCTAssertEqual(redirected?.url?.absoluteString, "https://h/b?x=1")
    }

    // MARK: Never

    func test_never_returnsNil() {
        XCTAssertNil(RedirectPolicy.never.redirect(request("https://h/b"), from: request("https://h/a"), statusCode: 302, body: nil))
    }

    func test_followsFalse_returnsNilEvenFor307() {
        let policy = RedirectPolicy(follows: false)
        XCTAssertNil(policy.redirect(request("https://h/b"), from: request("https://h/a"), statusCode: 307, body: .data(Data())))
    }
}
