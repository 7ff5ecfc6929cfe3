@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// RedirectPolicy: credentials stay on their origin, bodies go only where they are safe, methods
/// change as RFC 9110 says, `.never` stops.
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
        return policy.stripped(proposed, from: original)
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
        let redirected = RedirectPolicy.default.stripped(proposed, from: request("https://a.example/", headers: headers))
        XCTAssertEqual(redirected.allHTTPHeaderFields?.keys.sorted(), ["Accept"])
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
        let redirected = RedirectPolicy.default.stripped(
            request("https://h/b", headers: credentials), from: request("https://h/a", headers: credentials)
        )
        XCTAssertEqual(redirected.value(forHTTPHeaderField: "Authorization"), "Bearer t")
    }

    // MARK: Following, method and body

    private func response(_ status: Int, location: String?, url: String = "https://h/a") -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: location.map { ["Location": $0] } ?? [:], url: URL(string: url))
    }

    private let body = TransportBody.data(Data("password=hunter2".utf8))

    /// The step `policy` takes after a `status` redirect to `location` of a `method` request to
    /// `from`, sent with `body` and a JSON content type.
    private func step(
        _ method: String, _ from: String = "https://h/a", policy: RedirectPolicy = .default, body: TransportBody?,
        status: Int, location: String?
    ) -> RedirectPolicy.Step {
        var original = request(from, headers: credentials.merging(["Content-Type": "application/json"]) { $1 })
        original.httpMethod = method
        return policy.step(after: response(status, location: location, url: from), to: original, body: body)
    }

    private func followed(_ step: RedirectPolicy.Step, file: StaticString = #filePath, line: UInt = #line) -> (URLRequest, TransportBody?)? {
        guard case .follow(let request, let body) = step else {
            XCTFail("expected to follow, got \(step)", file: file, line: line)
            return nil
        }
        return (request, body)
    }

    private func refusal(_ step: RedirectPolicy.Step, file: StaticString = #filePath, line: UInt = #line) -> String? {
        guard case .refuse(let reason) = step else {
            XCTFail("expected a refusal, got \(step)", file: file, line: line)
            return nil
        }
        return reason
    }

    func test_307_sameOrigin_keepsMethodBodyAndCredentials() {
        let next = followed(step("POST", body: body, status: 307, location: "https://h/b"))
        XCTAssertEqual(next?.0.url?.absoluteString, "https://h/b")
        XCTAssertEqual(next?.0.httpMethod, "POST")
        XCTAssertEqual(next?.1, body)
        XCTAssertEqual(next?.0.value(forHTTPHeaderField: "Authorization"), "Bearer t")
    }

    func test_308_resolvesARelativeLocationAgainstTheResponseURL() {
        let next = followed(step("POST", "https://h/a/b", body: body, status: 308, location: "../c"))
        XCTAssertEqual(next?.0.url?.absoluteString, "https://h/c")
    }

    func test_307WithABody_toAnotherOrigin_isRefused() {
        let reason = refusal(step("POST", body: body, status: 307, location: "https://b.example/"))
        XCTAssertEqual(reason, "it would send the request's body to another origin (set RedirectPolicy.sendsBodyAcrossOrigins to allow it)")
    }

    func test_307WithABody_toAnotherOrigin_isFollowedWhenAllowed_withoutCredentials() {
        let policy = RedirectPolicy(sensitiveHeaders: ["x-session-token"], sendsBodyAcrossOrigins: true)
        let next = followed(step("POST", policy: policy, body: body, status: 307, location: "https://b.example/"))
        XCTAssertEqual(next?.1, body)
        XCTAssertEqual(next?.0.allHTTPHeaderFields?.keys.sorted(), ["Accept", "Content-Type"])
    }

    func test_aBody_neverGoesFromHTTPSToHTTP_evenWhenAllowedAcrossOrigins() {
        let policy = RedirectPolicy(sendsBodyAcrossOrigins: true)
        XCTAssertEqual(refusal(step("PUT", policy: policy, body: body, status: 308, location: "http://h/b")), "it would send the request's body from https to http")
    }

    func test_aGetWithoutBody_followsFromHTTPSToHTTP_withoutCredentials() {
        let next = followed(step("GET", body: nil, status: 302, location: "http://h/b"))
        XCTAssertNil(next?.0.value(forHTTPHeaderField: "Authorization"))
    }

    func test_redirectToAnotherScheme_isRefused_withOrWithoutABody() {
        XCTAssertEqual(refusal(step("POST", body: body, status: 307, location: "ftp://127.0.0.1:21/")),
                       "it points to a ftp URL, and only http and https are followed")
        XCTAssertEqual(refusal(step("GET", body: nil, status: 302, location: "file:///etc/passwd")),
                       "it points to a file URL, and only http and https are followed")
        XCTAssertNotNil(refusal(step("GET", body: nil, status: 301, location: "gopher://h/")))
    }

    /// An empty PUT can overwrite data: 301 and 302 keep the method and the body for every
    /// method but POST.
    func test_301And302OfPUTPATCHDELETE_keepMethodAndBody() {
        for method in ["PUT", "PATCH", "DELETE"] {
            for status in [301, 302] {
                let next = followed(step(method, body: body, status: status, location: "/b"))
                XCTAssertEqual(next?.0.httpMethod, method, "\(status) of \(method)")
                XCTAssertEqual(next?.1, body, "\(status) of \(method)")
                XCTAssertEqual(next?.0.value(forHTTPHeaderField: "Content-Type"), "application/json")
            }
        }
    }

    func test_301And302OfPOST_andEvery303_continueAsAGetWithoutBodyOrContentType() {
        for (method, status) in [("POST", 301), ("POST", 302), ("POST", 303), ("PUT", 303)] {
            let next = followed(step(method, body: body, status: status, location: "/b"))
            XCTAssertEqual(next?.0.httpMethod, "GET", "\(status) of \(method)")
            XCTAssertNil(next?.1, "\(status) of \(method)")
            XCTAssertNil(next?.0.value(forHTTPHeaderField: "Content-Type"), "\(status) of \(method)")
        }
    }

    func test_anAnswerThatIsNotAFollowableRedirect_stops() {
        for (status, location) in [(304, "/b"), (300, "/b"), (307, nil), (200, "/b")] as [(Int, String?)] {
            guard case .stop = step("GET", body: nil, status: status, location: location) else {
                return XCTFail("\(status) with \(location ?? "no Location") should stop")
            }
        }
    }

    // MARK: Never

    func test_never_stops() {
        guard case .stop = step("GET", policy: .never, body: nil, status: 302, location: "/b") else { return XCTFail("expected to stop") }
        guard case .stop = step("POST", policy: RedirectPolicy(follows: false), body: body, status: 307, location: "/b") else {
            return XCTFail("expected to stop")
        }
    }
}
