@testable import Baton
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// How the client builds a request: URL, query, headers, method, timeout and body.
final class RequestBuilderClientTests: XCTestCase {

    /// Sends `endpoint` through a stub answering `response` and returns the request it received.
    private func sent<E: Endpoint>(
        _ endpoint: E,
        baseURL: String = "http://h/",
        response: HTTPResponse = .json(Fixtures.orderJSON),
        configure: (inout Client.Configuration) -> Void = { _ in }
    ) async throws -> URLRequest? {
        let transport = constantStub(response)
        let client = makeClient(baseURL: baseURL, transport: transport, configure: configure)
        _ = try await client.send(endpoint).value
        return onlyRequest(transport)
    }

    /// Sends `endpoint`, which must fail, and returns the error and the stub's requests.
    private func failure<E: Endpoint>(
        _ endpoint: E, configure: (inout Client.Configuration) -> Void = { _ in }
    ) async -> (error: (any Error)?, requests: [URLRequest]) {
        let transport = constantStub(.json(Fixtures.orderJSON))
        let client = makeClient(transport: transport, configure: configure)
        let error = await awaitError(client.send(endpoint))
        return (error, transport.requests)
    }

    // MARK: - URL

    func test_baseURLWithTrailingSlash_joinsWithOneSlash() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1"), baseURL: "http://h/")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/orders/1")
    }

    func test_baseURLWithoutPath_joinsWithOneSlash() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1"), baseURL: "http://h")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/orders/1")
    }

    func test_basePathPrefixWithTrailingSlash_isKept() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1"), baseURL: "http://h/api/")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/api/orders/1")
    }

    func test_basePathPrefixWithoutTrailingSlash_isKept() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1"), baseURL: "http://h/api")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/api/orders/1")
    }

    func test_basePathPrefixWithSeveralTrailingSlashes_joinsWithOneSlash() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1"), baseURL: "http://h/api//")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/api/orders/1")
    }

    func test_basePort_isKept() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1"), baseURL: "http://h:8080/v1/")
        XCTAssertEqual(request?.url?.absoluteString, "http://h:8080/v1/orders/1")
    }

    func test_emptyPath_addressesTheBaseURL() async throws {
        let request = try await sent(Request<Order>(.get, ""), baseURL: "http://h/api")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/api/")
    }

    // MARK: - Query

    func test_queryReservedCharacters_arePercentEncoded() async throws {
        let endpoint = Request<Order>(.get, "orders", query: [URLQueryItem(name: "q", value: "a+b&c=d e")])
        let request = try await sent(endpoint)
        XCTAssertEqual(request?.url?.query, "q=a%2Bb%26c%3Dd%20e")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/orders?q=a%2Bb%26c%3Dd%20e")
    }

    func test_queryNonASCII_isPercentEncodedUTF8() async throws {
        let endpoint = Request<Order>(.get, "order_search", query: [URLQueryItem(name: "name", value: "山田")])
        let request = try await sent(endpoint)
        XCTAssertEqual(request?.url?.absoluteString, "http://h/order_search?name=%E5%B1%B1%E7%94%B0")
    }

    func test_queryUnreservedCharacters_stayLiteral() async throws {
        let endpoint = Request<Order>(.get, "orders", query: [URLQueryItem(name: "v", value: "a-b_c.d~e")])
        let request = try await sent(endpoint)
        XCTAssertEqual(request?.url?.query, "v=a-b_c.d~e")
    }

    func test_queryName_isPercentEncodedToo() async throws {
        let endpoint = Request<Order>(.get, "orders", query: [URLQueryItem(name: "a b&c", value: "1")])
        let request = try await sent(endpoint)
        XCTAssertEqual(request?.url?.query, "a%20b%26c=1")
    }

    func test_queryItemWithNilValue_isNameOnly() async throws {
        let endpoint = Request<Order>(.get, "orders", query: [
            URLQueryItem(name: "flag", value: nil), URLQueryItem(name: "x", value: "1"),
        ])
        let request = try await sent(endpoint)
        XCTAssertEqual(request?.url?.query, "flag&x=1")
    }

    func test_queryItemWithEmptyValue_keepsTheEqualsSign() async throws {
        let endpoint = Request<Order>(.get, "orders", query: [URLQueryItem(name: "q", value: "")])
        let request = try await sent(endpoint)
        XCTAssertEqual(request?.url?.query, "q=")
    }

    func test_baseURLQuery_comesBeforeEndpointQuery() async throws {
        let endpoint = Request<Order>(.get, "orders", query: [URLQueryItem(name: "q", value: "x")])
        let request = try await sent(endpoint, baseURL: "http://h/api?key=1")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/api/orders?key=1&q=x")
    }

    func test_noQueryItems_sendsNoQuestionMark() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1"))
        XCTAssertNil(request?.url?.query)
    }

    func test_summary_namesMethodPathAndEncodedQuery() throws {
        let endpoint = Request<Order>(.get, "orders", query: [URLQueryItem(name: "q", value: "a b")])
        let configuration = Client.Configuration(baseURL: URL(string: "http://h/api/")!)
        let prepared = try RequestBuilder(configuration: configuration).prepare(endpoint)
        XCTAssertEqual(prepared.summary.description, "GET /api/orders?q=a%20b")
        XCTAssertEqual(prepared.summary.path, "orders")
    }

    // MARK: - Method and timeout

    func test_method_isSentAsItsToken() async throws {
        let request = try await sent(Request<Order>(.put, "orders/1"))
        XCTAssertEqual(request?.httpMethod, "PUT")
    }

    func test_customMethodToken_isSent() async throws {
        let request = try await sent(Request<Order>("PURGE", "orders/1"))
        XCTAssertEqual(request?.httpMethod, "PURGE")
    }

    func test_invalidMethodToken_isInvalidRequestAndNothingIsSent() async {
        let (error, requests) = await failure(Request<Order>("GE T", "orders/1"))
        let parts = invalidRequestParts(error)
        XCTAssertEqual(parts?.field, "method")
        XCTAssertEqual(parts?.reason, "\"GE T\" is not a valid HTTP method token")
        XCTAssertEqual(requests.count, 0)
    }

    func test_emptyMethod_isInvalidRequest() async {
        let (error, requests) = await failure(Request<Order>("", "orders/1"))
        XCTAssertEqual(invalidRequestParts(error)?.field, "method")
        XCTAssertEqual(requests.count, 0)
    }

    func test_timeout_defaultsToSixtySeconds() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1"))
        XCTAssertEqual(request?.timeoutInterval, 60)
    }

    /// URLSession on Linux keeps whole seconds (0.2 s would become no time at all): rounded up.
    func test_timeout_isTheConfiguredTimeout_roundedUpToWholeSecondsOnLinux() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1")) { $0.timeout = .milliseconds(2500) }
        let short = try await sent(Request<Order>(.get, "orders/1")) { $0.timeout = .milliseconds(200) }
        #if canImport(FoundationNetworking)
        XCTAssertEqual([request?.timeoutInterval, short?.timeoutInterval], [3, 1])
        #else
        XCTAssertEqual([request?.timeoutInterval, short?.timeoutInterval], [2.5, 0.2])
        #endif
    }

    // MARK: - Headers

    func test_defaultUserAgent_isBatonVersionAndLinuxVersion() async throws {
        let pattern = #"^Baton/0\.1\.0 \(Linux \d+\.\d+\.\d+\)$"#
        XCTAssertNotNil(Client.defaultUserAgent.range(of: pattern, options: .regularExpression), Client.defaultUserAgent)
        let request = try await sent(Request<Order>(.get, "orders/1"))
        XCTAssertEqual(request?.value(forHTTPHeaderField: "User-Agent"), Client.defaultUserAgent)
    }

    func test_configuredUserAgentProperty_isSent() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1")) { $0.userAgent = "OrdersApp/3.1" }
        XCTAssertEqual(request?.value(forHTTPHeaderField: "User-Agent"), "OrdersApp/3.1")
    }

    func test_configuredUserAgentHeader_winsOverDefault() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1")) { $0.headers = ["User-Agent": "MyApp/2.0"] }
        XCTAssertEqual(request?.value(forHTTPHeaderField: "User-Agent"), "MyApp/2.0")
    }

    func test_configuredUserAgentHeaderInLowerCase_winsOverDefault() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1")) { $0.headers = ["user-agent": "MyApp/2.0"] }
        XCTAssertEqual(request?.value(forHTTPHeaderField: "User-Agent"), "MyApp/2.0")
    }

    func test_configurationHeaders_areSent() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1")) {
            $0.headers = ["X-Session-Token": "s-1", "X-Client": "tests"]
        }
        XCTAssertEqual(request?.value(forHTTPHeaderField: "X-Session-Token"), "s-1")
        XCTAssertEqual(request?.value(forHTTPHeaderField: "X-Client"), "tests")
    }

    func test_endpointHeaders_overrideConfigurationHeaders() async throws {
        let endpoint = Request<Order>(.get, "orders/1", headers: ["X-Session-Token": "from-endpoint"])
        let request = try await sent(endpoint) { $0.headers = ["X-Session-Token": "from-configuration"] }
        XCTAssertEqual(request?.value(forHTTPHeaderField: "X-Session-Token"), "from-endpoint")
    }

    /// Header names are case-insensitive (RFC 9110 §5.1), so an endpoint's `x-h3` must replace
    /// the configuration's `X-H3`. Sixteen pairs make a lucky pass (2^-16) out of the question:
    /// which of two differently-cased keys the builder applies last depends on dictionary order.
    func test_endpointHeaders_overrideConfigurationHeadersSpelledInAnotherCase() async throws {
        let names = (0..<16).map { "X-H\($0)" }
        var endpointHeaders: [String: String] = [:]
        for name in names { endpointHeaders[name.lowercased()] = "endpoint" }
        let endpoint = Request<Order>(.get, "orders/1", headers: endpointHeaders)
        let request = try await sent(endpoint) { configuration in
            for name in names { configuration.headers[name] = "configuration" }
        }
        let values = names.map { request?.value(forHTTPHeaderField: $0) }
        XCTAssertEqual(values, Array(repeating: "endpoint", count: names.count))
    }

    func test_decodableResponse_acceptsJSONTypes() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1"))
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Accept"), "application/json, application/*+json")
    }

    func test_dataResponse_sendsNoAcceptHeader() async throws {
        let request = try await sent(Request<Data>(.get, "files/1"))
        XCTAssertNil(request?.value(forHTTPHeaderField: "Accept"))
    }

    func test_configurationAcceptHeader_winsOverTheJSONDefault() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1")) { $0.headers = ["Accept": "application/vnd.api+json"] }
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Accept"), "application/vnd.api+json")
    }

    func test_configurationAcceptHeaderInLowerCase_winsOverTheJSONDefault() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1")) { $0.headers = ["accept": "application/vnd.api+json"] }
        XCTAssertEqual(request?.allHTTPHeaderFields?.filter { $0.key.lowercased() == "accept" }, ["accept": "application/vnd.api+json"])
    }

    func test_endpointAcceptingOtherTypes_sendsThemAsAccept() async throws {
        var endpoint = Request<String>(.get, "orders/1")
        endpoint.acceptableContentTypes = ["application/xml", "text/*"]
        let request = try await sent(endpoint, response: HTTPResponse(statusCode: 200, headers: ["Content-Type": "text/plain"]))
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Accept"), "application/xml, text/*")
    }

    func test_endpointAcceptHeader_wins() async throws {
        let endpoint = Request<Order>(.get, "orders/1", headers: ["Accept": "application/vnd.orders+json"])
        let request = try await sent(endpoint)
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Accept"), "application/vnd.orders+json")
    }

    func test_headerNameWithSpace_isInvalidRequestAndNothingIsSent() async {
        let (error, requests) = await failure(Request<Order>(.get, "orders/1", headers: ["X Bad": "1"]))
        let parts = invalidRequestParts(error)
        XCTAssertEqual(parts?.field, #"header "X Bad""#)
        XCTAssertEqual(parts?.reason, "the name is not an HTTP token")
        XCTAssertEqual(requests.count, 0)
    }

    /// The builder looks for "\r" and "\n" among the value's Characters, but "\r\n" is one
    /// Character (a single grapheme cluster) equal to neither, so a CRLF slips through; on Linux
    /// URLRequest then drops the header silently and the request goes out without it.
    func test_headerValueWithCRLF_isInvalidRequestAndNothingIsSent() async {
        let endpoint = Request<Order>(.get, "orders/1", headers: ["X-Note": "a\r\nX-Injected: 1"])
        let (error, requests) = await failure(endpoint)
        let parts = invalidRequestParts(error)
        XCTAssertEqual(parts?.field, #"header "X-Note""#)
        XCTAssertEqual(parts?.reason, "the value contains the control character U+000D")
        XCTAssertEqual(requests.count, 0)
    }

    func test_headerValueWithAnyControlCharacter_isInvalidRequestNamingIt() async {
        for (value, code) in [("a\u{01}b", "U+0001"), ("a\u{1F}", "U+001F"), ("a\u{7F}", "U+007F"), ("\u{0}", "U+0000")] {
            let (error, requests) = await failure(Request<Order>(.get, "orders/1", headers: ["X-Note": value]))
            XCTAssertEqual(invalidRequestParts(error)?.reason, "the value contains the control character \(code)")
            XCTAssertEqual(requests.count, 0)
        }
    }

    func test_headerValueWithATab_isSent() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1", headers: ["X-Note": "a\tb"]))
        XCTAssertEqual(request?.value(forHTTPHeaderField: "X-Note"), "a\tb")
    }

    /// URLRequest on Linux drops a value holding a line break without a word: the call went out
    /// with no `Authorization` at all. Baton's adapters refuse such a value instead.
    func test_bearerTokenWithALineBreak_failsTheCallNamingTheHeader_andSendsNothing() async {
        let adapter = BearerTokenAdapter { "abc\r\nX-Injected: 1" }
        let (error, requests) = await failure(Request<Order>(.get, "orders/1")) { $0.adapters = [adapter]; $0.retriers = [] }
        let parts = invalidRequestParts(error)
        XCTAssertEqual(parts?.field, #"header "Authorization" (set by an adapter)"#)
        XCTAssertEqual(parts?.reason, "the value contains the control character U+000D")
        XCTAssertFalse("\(String(describing: error))".contains("abc"), "the token stays out of the error")
        XCTAssertEqual(requests.count, 0)
    }

    func test_headersAdapterValueWithALineBreak_failsTheCall_andSendsNothing() async {
        let adapter = HeadersAdapter(["X-Session": "s\nX-Evil: 1"])
        let (error, requests) = await failure(Request<Order>(.get, "orders/1")) { $0.adapters = [adapter]; $0.retriers = [] }
        XCTAssertEqual(invalidRequestParts(error)?.field, #"header "X-Session" (set by an adapter)"#)
        XCTAssertEqual(requests.count, 0)
    }

    func test_configurationHeaderValueWithNewline_isInvalidRequestAndNothingIsSent() async {
        let (error, requests) = await failure(Request<Order>(.get, "orders/1")) { $0.headers = ["X-Note": "a\nb"] }
        XCTAssertEqual(invalidRequestParts(error)?.field, #"header "X-Note""#)
        XCTAssertEqual(requests.count, 0)
    }

    func test_headerNameWithNonASCII_isInvalidRequest() async {
        let (error, requests) = await failure(Request<Order>(.get, "orders/1", headers: ["X-名前": "1"]))
        XCTAssertEqual(invalidRequestParts(error)?.field, #"header "X-名前""#)
        XCTAssertEqual(requests.count, 0)
    }

    // MARK: - Bodies

    func test_jsonBody_setsContentTypeJSON() async throws {
        let body = NewReview(facilityId: 1, content: "良い", rating: 5)
        let request = try await sent(Request<Order>(.post, "facilities/1/reviews", body: .json(body)))
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Content-Type"), "application/json")
    }

    func test_jsonBody_isEncodedWithTheClientsEncoder() async throws {
        let body = NewReview(facilityId: 1, content: "良い", rating: 5)
        let request = try await sent(Request<Order>(.post, "facilities/1/reviews", body: .json(body))) { configuration in
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            encoder.outputFormatting = [.sortedKeys]
            configuration.encoder = encoder
        }
        XCTAssertEqual(request?.httpBody.map { String(decoding: $0, as: UTF8.self) }, #"{"content":"良い","facility_id":1,"rating":5}"#)
    }

    func test_jsonBody_reachesTheTransportAsDataBody() async throws {
        let captured = Recorder<TransportBody?>()
        let transport = StubTransport { _, body in
            captured.append(body)
            return .json(Fixtures.orderJSON)
        }
        let client = makeClient(transport: transport) { $0.encoder.outputFormatting = [.sortedKeys] }
        _ = try await client.send(Request<Order>(.post, "orders", body: .json(["b": 2, "a": 1]))).value
        XCTAssertEqual(captured.events, [.data(Data(#"{"a":1,"b":2}"#.utf8))])
    }

    func test_formBody_encodesSpaceAsPlusAndAmpersandAsPercent26() async throws {
        let request = try await sent(Request<Order>(.post, "search", body: .form([(name: "q", value: "a b&c")])))
        XCTAssertEqual(request?.httpBody.map { String(decoding: $0, as: UTF8.self) }, "q=a+b%26c")
    }

    func test_formBody_encodesNamesKeepsOrderAndEncodesNonASCII() async throws {
        let fields: [(name: String, value: String)] = [("b", "1"), ("a=", "x+y"), ("名", "山田"), ("t", "*-._~")]
        let request = try await sent(Request<Order>(.post, "search", body: .form(fields)))
        XCTAssertEqual(
            request?.httpBody.map { String(decoding: $0, as: UTF8.self) },
            "b=1&a%3D=x%2By&%E5%90%8D=%E5%B1%B1%E7%94%B0&t=*-._%7E"
        )
    }

    func test_formBody_setsFormContentType() async throws {
        let request = try await sent(Request<Order>(.post, "tokens", body: .form([(name: "a", value: "1")])))
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded")
    }

    func test_dataBody_keepsItsContentTypeAndBytes() async throws {
        let bytes = Data([0x89, 0x50, 0x4E, 0x47])
        let request = try await sent(Request<Order>(.post, "photos", body: .data(bytes, contentType: "image/png")))
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Content-Type"), "image/png")
        XCTAssertEqual(request?.httpBody, bytes)
    }

    func test_endpointContentTypeHeader_winsOverTheBodysType() async throws {
        let endpoint = Request<Order>(.post, "orders", headers: ["content-type": "application/vnd.orders+json"],
                                      body: .json(["a": 1]))
        let request = try await sent(endpoint)
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Content-Type"), "application/vnd.orders+json")
    }

    func test_noBody_sendsNoContentTypeAndNoBody() async throws {
        let request = try await sent(Request<Order>(.get, "orders/1"))
        XCTAssertNil(request?.value(forHTTPHeaderField: "Content-Type"))
        XCTAssertNil(request?.httpBody)
    }

    func test_encodableThatThrows_isInvalidRequestBodyAndNothingIsSent() async {
        let endpoint = Request<Order>(.post, "orders", body: .json(Unencodable()))
        let (error, requests) = await failure(endpoint)
        let parts = invalidRequestParts(error)
        XCTAssertEqual(parts?.field, "body")
        XCTAssertEqual(parts?.reason, "it does not encode: EncodingFailure()")
        XCTAssertEqual(requests.count, 0)
    }
}
