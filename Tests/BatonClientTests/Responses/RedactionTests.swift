@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// Redaction of headers and bodies, the cURL rendering, and LoggingMonitor's lines.
final class RedactionClientTests: XCTestCase {

    private let redaction = Redaction.default

    private func makeRequest(_ method: String = "GET", url: String = "http://h/orders/1", headers: [String: String] = [:], body: String? = nil) -> URLRequest {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    // MARK: Headers

    func test_authorizationValue_isRedacted() {
        XCTAssertEqual(redaction.headerValue("Bearer t0ps3cret", for: "Authorization"), "<redacted>")
    }

    func test_cookieSetCookieAndProxyAuthorization_areRedacted() {
        XCTAssertEqual(redaction.headerValue("session=abc", for: "Cookie"), "<redacted>")
        XCTAssertEqual(redaction.headerValue("session=abc", for: "Set-Cookie"), "<redacted>")
        XCTAssertEqual(redaction.headerValue("Basic eDp5", for: "Proxy-Authorization"), "<redacted>")
    }

    func test_headerNames_matchWithoutCase() {
        XCTAssertEqual(redaction.headerValue("Bearer t", for: "AUTHORIZATION"), "<redacted>")
        XCTAssertEqual(redaction.headerValue("Bearer t", for: "authorization"), "<redacted>")
    }

    func test_otherHeaders_areShown() {
        XCTAssertEqual(redaction.headerValue("application/json", for: "Accept"), "application/json")
    }

    func test_customHeaderNames_matchWithoutCase() {
        let redaction = Redaction(headers: ["X-Api-Key"], bodyFields: [])
        XCTAssertEqual(redaction.headerValue("k", for: "x-api-key"), "<redacted>")
        XCTAssertEqual(redaction.headerValue("k", for: "X-API-KEY"), "<redacted>")
    }

    // MARK: Bodies

    func test_formBody_hidesRefreshTokenAndKeepsGrantType() {
        let body = Data("grant_type=refresh_token&refresh_token=abc".utf8)
        XCTAssertEqual(redaction.body(body, contentType: "application/x-www-form-urlencoded"), "grant_type=refresh_token&refresh_token=<redacted>")
    }

    func test_formBody_withCharsetParameter_isRedacted() {
        let body = Data("username=demo&password=hunter2".utf8)
        XCTAssertEqual(redaction.body(body, contentType: "application/x-www-form-urlencoded; charset=utf-8"), "username=demo&password=<redacted>")
    }

    func test_formBody_percentEncodedFieldName_isRedacted() {
        let body = Data("refresh%5Ftoken=abc&x=1".utf8)
        XCTAssertEqual(redaction.body(body, contentType: "application/x-www-form-urlencoded"), "refresh%5Ftoken=<redacted>&x=1")
    }

    func test_jsonBody_hidesPasswordWithSortedKeys() {
        let body = Data(#"{"user":"u","password":"p"}"#.utf8)
        XCTAssertEqual(redaction.body(body, contentType: "application/json"), #"{"password":"<redacted>","user":"u"}"#)
    }

    func test_jsonBody_hidesNestedFields() {
        let body = Data(#"{"auth":{"access_token":"a"},"items":[{"client_secret":"c","n":1}]}"#.utf8)
        XCTAssertEqual(
            redaction.body(body, contentType: "application/problem+json"),
            #"{"auth":{"access_token":"<redacted>"},"items":[{"client_secret":"<redacted>","n":1}]}"#
        )
    }

    func test_textBody_isShownAsIs() {
        XCTAssertEqual(redaction.body(Data("hello".utf8), contentType: "text/plain"), "hello")
    }

    func test_binaryBody_isSummarisedByItsLength() {
        XCTAssertEqual(redaction.body(Data([1, 2, 3, 4]), contentType: "image/png"), "<4 bytes>")
        XCTAssertEqual(redaction.body(Data([1, 2]), contentType: nil), "<2 bytes>")
    }

    // MARK: cURL

    func test_curl_ofAGet_isTheQuotedURL() {
        XCTAssertEqual(makeRequest().curlCommand(), "curl 'http://h/orders/1'")
    }

    /// Writing the placeholder back into `URLComponents.percentEncodedQuery` trapped (exit 132):
    /// `<` and `>` are not allowed there.
    func test_curl_ofAQueryWithSecretFields_hidesTheirValuesWithoutTrapping() {
        let request = makeRequest(url: "http://h/orders?page=2&access_token=t0ps3cret&Password=hunter2#top")
        XCTAssertEqual(request.curlCommand(), "curl 'http://h/orders?page=2&access_token=<redacted>&Password=<redacted>#top'")
    }

    func test_url_withAPassword_hidesIt() {
        let url = URL(string: "http://user:hunter2@h:8080/orders?token=abc")!
        XCTAssertEqual(redaction.url(url), "http://user:<redacted>@h:8080/orders?token=<redacted>")
    }

    func test_url_withAUserAndNoPassword_keepsTheUser() {
        XCTAssertEqual(redaction.url(URL(string: "http://user@h/orders")!), "http://user@h/orders")
    }

    func test_curl_hidesAuthorizationAndCookie() {
        let request = makeRequest(headers: ["Authorization": "Bearer t0ps3cret", "Cookie": "session=abc", "Accept": "application/json"])
        XCTAssertEqual(
            request.curlCommand(),
            "curl 'http://h/orders/1' -H 'Accept: application/json' -H 'Authorization: <redacted>' -H 'Cookie: <redacted>'"
        )
    }

    func test_curl_ofAFormPost_hidesTheTokenField() {
        let request = makeRequest(
            "POST", url: "http://h/tokens", headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: "grant_type=refresh_token&refresh_token=abc"
        )
        XCTAssertEqual(
            request.curlCommand(),
            "curl -X POST 'http://h/tokens' -H 'Content-Type: application/x-www-form-urlencoded' --data-raw 'grant_type=refresh_token&refresh_token=<redacted>'"
        )
    }

    func test_curl_ofAJSONPost_hidesThePassword() {
        let request = makeRequest("POST", url: "http://h/login", headers: ["Content-Type": "application/json"], body: #"{"password":"p","user":"u"}"#)
        XCTAssertEqual(
            request.curlCommand(),
            #"curl -X POST 'http://h/login' -H 'Content-Type: application/json' --data-raw '{"password":"<redacted>","user":"u"}'"#
        )
    }

    func test_curl_escapesSingleQuotesForTheShell() {
        let request = makeRequest("POST", url: "http://h/notes", headers: ["X-Name": "O'Brien", "Content-Type": "text/plain"], body: "it's")
        XCTAssertEqual(
            request.curlCommand(),
            #"curl -X POST 'http://h/notes' -H 'Content-Type: text/plain' -H 'X-Name: O'\''Brien' --data-raw 'it'\''s'"#
        )
    }

    func test_curl_usesTheGivenRedaction() {
        let request = makeRequest(headers: ["X-Api-Key": "k-123", "Authorization": "Bearer t"])
        XCTAssertEqual(
            request.curlCommand(redaction: Redaction(headers: ["x-api-key"], bodyFields: [], matchesSecretPatterns: false)),
            "curl 'http://h/orders/1' -H 'Authorization: Bearer t' -H 'X-Api-Key: <redacted>'"
        )
    }

    // MARK: LoggingMonitor

    private func loggedLines(
        for endpoint: Request<Order>, answering responses: [HTTPResponse], showsAttempts: Bool = true,
        retriers: [any RequestRetrier] = [], configure: (inout Client.Configuration) -> Void = { _ in }
    ) async throws -> [String] {
        let lines = Recorder<String>()
        let client = try makeClient(transport: sequencedStub(responses), retriers: retriers) { configuration in
            configuration.monitors = [LoggingMonitor(showsAttempts: showsAttempts) { lines.append($0) }]
            configure(&configuration)
        }
        _ = await awaitError(client.send(endpoint))
        return lines.events
    }

    func test_loggingMonitor_linesOfASuccessfulCall() async throws {
        let lines = try await loggedLines(for: Request(.get, "orders/1"), answering: [.json(Fixtures.orderJSON)]) {
            $0.userAgent = "Tests/1"
        }
        XCTAssertEqual(lines.count, 3)
        XCTAssertEqual(lines.first, "→ GET http://h/orders/1")
        XCTAssertEqual(lines.dropFirst().first,
                       "⇢ GET http://h/orders/1 attempt 1: curl 'http://h/orders/1' -H 'Accept: application/json, application/*+json' -H 'User-Agent: Tests/1'")
        XCTAssertNotNil(lines.last?.range(of: #"^✓ GET http://h/orders/1 200 in \d+ ms \(1 attempt\) \[total \d+\.\d ms(: .*)?\]$"#, options: .regularExpression), lines.last ?? "")
    }

    func test_loggingMonitor_withoutShowsAttempts_logsNoAttemptLine() async throws {
        let lines = try await loggedLines(for: Request(.get, "orders/1"), answering: [.json(Fixtures.orderJSON)], showsAttempts: false)
        XCTAssertEqual(lines.count, 2)
        XCTAssertFalse(lines.contains { $0.hasPrefix("⇢") })
    }

    func test_loggingMonitor_retryLine() async throws {
        let log = Recorder<String>()
        let lines = try await loggedLines(
            for: Request(.get, "orders/1"), answering: [HTTPResponse(statusCode: 503), .json(Fixtures.orderJSON)],
            showsAttempts: false, retriers: [ScriptedRetrier(name: "r", decision: .retry(after: .milliseconds(1), cause: .transientFailure), log: log)]
        )
        XCTAssertEqual(lines.dropFirst().first,
                       "↻ GET http://h/orders/1 attempt 1 failed (transientFailure), retrying in 1 ms: GET http://h/orders/1 failed: the server answered 503 Service Unavailable.")
    }

    func test_loggingMonitor_failureLine() async throws {
        let lines = try await loggedLines(for: Request(.get, "orders/1"), answering: [HTTPResponse(statusCode: 404)])
        let last = lines.last ?? ""
        XCTAssertTrue(last.hasPrefix("✗ GET http://h/orders/1 failed after 1 attempt: GET http://h/orders/1 failed: the server answered 404 Not Found. [total "), last)
        XCTAssertTrue(last.hasSuffix("]"), last)
    }

    func test_loggingMonitor_linesContainNoCredentialOrBodySecret() async throws {
        let endpoint = Request<Order>(
            .post, "tokens", headers: ["Cookie": "session=c00kie"],
            body: .form([(name: "grant_type", value: "password"), (name: "username", value: "demo"), (name: "password", value: "hunter2")])
        )
        let lines = try await loggedLines(for: endpoint, answering: [.json(Fixtures.orderJSON)]) {
            $0.adapters = [BearerTokenAdapter { "t0ps3cret" }]
        }
        XCTAssertEqual(lines.count, 3)
        for secret in ["t0ps3cret", "c00kie", "hunter2"] {
            XCTAssertFalse(lines.contains { $0.contains(secret) }, "\(secret) appears in \(lines)")
        }
    }

    /// `attemptStarted` is documented as "exactly what goes on the wire", and CURL.swift's example
    /// shows a token POST with `--data-raw`; but the client hands monitors the request without
    /// its body (the body travels beside it as a `TransportBody`), so the logged cURL command of
    /// a POST has no body.
    func test_loggingMonitor_attemptLineOfAFormPost_showsTheRedactedBody() async throws {
        let endpoint = Request<Order>(
            .post, "tokens", body: .form([(name: "grant_type", value: "password"), (name: "username", value: "demo"), (name: "password", value: "hunter2")])
        )
        let lines = try await loggedLines(for: endpoint, answering: [.json(Fixtures.orderJSON)]) { $0.userAgent = "Tests/1" }
        XCTAssertEqual(
            lines.dropFirst().first,
            "⇢ POST http://h/tokens attempt 1: curl -X POST 'http://h/tokens' -H 'Accept: application/json, application/*+json' "
                + "-H 'Content-Type: application/x-www-form-urlencoded' -H 'User-Agent: Tests/1' "
                + "--data-raw 'grant_type=password&username=demo&password=<redacted>'"
        )
    }

    /// `Client.Configuration.sensitiveHeaders` says its headers are "hidden in logs", but
    /// LoggingMonitor only knows its own `Redaction` (`.default` unless given one).
    func test_loggingMonitor_hidesTheConfigurationsSensitiveHeaders() async throws {
        let lines = try await loggedLines(for: Request(.get, "orders/1"), answering: [.json(Fixtures.orderJSON)]) { configuration in
            configuration.sensitiveHeaders = ["X-Session-Token"]
            configuration.headers = ["X-Session-Token": "s3ss10n"]
        }
        XCTAssertFalse(lines.contains { $0.contains("s3ss10n") }, "the session token appears in \(lines)")
    }

    /// A sensitive header whose name no secret pattern matches is hidden all the same: the
    /// client's sensitive headers travel with every event's request, to every monitor.
    func test_loggingMonitor_hidesASensitiveHeaderNoPatternMatches() async throws {
        let lines = try await loggedLines(for: Request(.get, "orders/1"), answering: [.json(Fixtures.orderJSON)]) { configuration in
            configuration.sensitiveHeaders = ["X-Tenant"]
            configuration.headers = ["X-Tenant": "acme-7"]
        }
        XCTAssertTrue(lines.contains { $0.contains("X-Tenant: <redacted>") }, "no attempt line names the header in \(lines)")
        XCTAssertFalse(lines.contains { $0.contains("acme-7") }, "the tenant appears in \(lines)")
    }

    /// An error's description quotes the start of the response body; a token response that fails
    /// to decode puts its `access_token` in the `✗` line unredacted.
    func test_loggingMonitor_hidesTokensQuotedFromAFailedResponseBody() async throws {
        let lines = Recorder<String>()
        let body = #"{"access_token":"t0ps3cret","expires_in":"soon"}"#
        let client = try makeClient(transport: constantStub(.json(body))) { configuration in
            configuration.monitors = [LoggingMonitor { lines.append($0) }]
            configuration.decoder = Fixtures.snakeCaseDecoder()
        }
        _ = await awaitError(client.send(Request<TokenResponse>(.post, "tokens")))
        XCTAssertFalse(lines.events.contains { $0.contains("t0ps3cret") }, "the token appears in \(lines.events)")
    }

    // MARK: Names, patterns, sizes and lines

    func test_fieldNames_matchIgnoringCaseUnderscoresAndDashes() {
        for name in ["accessToken", "refresh-token", "CLIENT_SECRET", "clientSecret", "api_key", "X-Api-Key", "new_password",
                     "code", "code_verifier", "client_assertion", "id_token", "X-Amz-Signature", "sessionId"] {
            XCTAssertTrue(redaction.isSecretField(name), name)
        }
        for name in ["name", "rating", "content", "grant_type", "page"] {
            XCTAssertFalse(redaction.isSecretField(name), name)
        }
    }

    func test_headerNames_matchThePatternsToo() {
        XCTAssertEqual(redaction.headerValue("t", for: "X-Auth-Token"), "<redacted>")
        XCTAssertEqual(redaction.headerValue("k", for: "X-API-Key"), "<redacted>")
        XCTAssertEqual(redaction.headerValue("application/json", for: "Content-Type"), "application/json")
    }

    /// Bodies over 64 KiB were previewed raw.
    func test_previewOfALargeJSONBody_hidesItsSecrets() {
        let body = #"{"token":"MARK-big","refresh_token":"MARK-big2","pad":""# + String(repeating: "x", count: 200_000) + #""}"#
        let response = HTTPResponse(statusCode: 500, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        let preview = response.bodyPreview()
        XCTAssertFalse(preview.contains("MARK"), preview)
    }

    /// A body that is not valid JSON was printed as it was.
    func test_previewOfTextThatIsNotJSON_hidesAssignmentsAndBearerTokens() {
        let text = #"oops {"access_token": "MARK-1", api_key=MARK-2; Authorization: Bearer MARK-3, password: 'MARK-4'"#
        let response = HTTPResponse(statusCode: 500, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
        let preview = response.bodyPreview(limit: 500)
        XCTAssertFalse(preview.contains("MARK"), preview)
        XCTAssertTrue(preview.hasPrefix("oops"), preview)
    }

    /// A newline in a server's message forged a whole `✓ GET /admin 200` line in the log.
    func test_serverTextWithLineBreaks_staysOnOneLine() {
        let body = Data(#"{"message":"no\n✓ GET /admin 200 in 1 ms (1 attempt)"}"#.utf8)
        let response = HTTPResponse(statusCode: 403, headers: ["Content-Type": "application/json"], body: body)
        let error = APIError.unacceptableStatus(summary(.get, "orders/1"), response, message: response.serverMessage)
        XCTAssertFalse(error.description.contains("\n"), error.description)
        XCTAssertTrue(error.description.contains(#"no\n✓ GET /admin"#), error.description)
    }

    func test_responseDescription_hidesSetCookie() {
        let response = HTTPResponse(statusCode: 200, headers: ["Set-Cookie": "session=MARK", "Content-Type": "text/plain"], body: Data("hi".utf8))
        XCTAssertEqual("\(response)", "200 OK, headers [Content-Type: text/plain, Set-Cookie: <redacted>], 2 bytes")
        XCTAssertFalse(String(reflecting: response).contains("MARK"))
    }

    /// The →/✓/✗ lines and error sentences used the default redaction, whatever the monitor's.
    func test_loggingMonitor_hidesWhatItsOwnRedactionNames_inEveryLine() async throws {
        let lines = Recorder<String>()
        let monitor = LoggingMonitor(redaction: Redaction(headers: [], bodyFields: ["order_ref"]), showsAttempts: true) { lines.append($0) }
        let transport = constantStub(.json(#"{"order_ref":"MARK-ref"}"#, statusCode: 422))
        let client = try makeClient(transport: transport) { $0.monitors = [monitor]; $0.retryPolicy = nil }
        _ = await awaitError(client.send(Request<Order>(.get, "orders", query: [URLQueryItem(name: "order_ref", value: "MARK-q")])))
        XCTAssertEqual(lines.count, 3)
        for line in lines.events { XCTAssertFalse(line.contains("MARK"), line) }
    }
}
