@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// How the client builds a request: URL, query, method, timeout and body (headers: RequestHeaderTests).
final class RequestBuilderClientTests: XCTestCase {

    // MARK: - URL

    func test_baseURLWithTrailingSlash_joinsWithOneSlash() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1"), baseURL: "http://h/")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/orders/1")
    }

    func test_baseURLWithoutPath_joinsWithOneSlash() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1"), baseURL: "http://h")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/orders/1")
    }

    func test_basePathPrefixWithTrailingSlash_isKept() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1"), baseURL: "http://h/api/")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/api/orders/1")
    }

    func test_basePathPrefixWithoutTrailingSlash_isKept() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1"), baseURL: "http://h/api")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/api/orders/1")
    }

    func test_basePathPrefixWithSeveralTrailingSlashes_joinsWithOneSlash() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1"), baseURL: "http://h/api//")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/api/orders/1")
    }

    func test_basePort_isKept() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1"), baseURL: "http://h:8080/v1/")
        XCTAssertEqual(request?.url?.absoluteString, "http://h:8080/v1/orders/1")
    }

    func test_emptyPath_addressesTheBaseURL() async throws {
        let request = try await sentRequest(Request<Order>(.get, ""), baseURL: "http://h/api")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/api/")
    }

    // MARK: - Query

    func test_queryReservedCharacters_arePercentEncoded() async throws {
        let endpoint = Request<Order>(.get, "orders", query: [URLQueryItem(name: "q", value: "a+b&c=d e")])
        let request = try await sentRequest(endpoint)
        XCTAssertEqual(request?.url?.query, "q=a%2Bb%26c%3Dd%20e")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/orders?q=a%2Bb%26c%3Dd%20e")
    }

    func test_queryNonASCII_isPercentEncodedUTF8() async throws {
        let endpoint = Request<Order>(.get, "order_search", query: [URLQueryItem(name: "name", value: "山田")])
        let request = try await sentRequest(endpoint)
        XCTAssertEqual(request?.url?.absoluteString, "http://h/order_search?name=%E5%B1%B1%E7%94%B0")
    }

    func test_queryUnreservedCharacters_stayLiteral() async throws {
        let endpoint = Request<Order>(.get, "orders", query: [URLQueryItem(name: "v", value: "a-b_c.d~e")])
        let request = try await sentRequest(endpoint)
        XCTAssertEqual(request?.url?.query, "v=a-b_c.d~e")
    }

    func test_queryName_isPercentEncodedToo() async throws {
        let endpoint = Request<Order>(.get, "orders", query: [URLQueryItem(name: "a b&c", value: "1")])
        let request = try await sentRequest(endpoint)
        XCTAssertEqual(request?.url?.query, "a%20b%26c=1")
    }

    func test_queryItemWithNilValue_isNameOnly() async throws {
        let endpoint = Request<Order>(.get, "orders", query: [
            URLQueryItem(name: "flag", value: nil), URLQueryItem(name: "x", value: "1"),
        ])
        let request = try await sentRequest(endpoint)
        XCTAssertEqual(request?.url?.query, "flag&x=1")
    }

    func test_queryItemWithEmptyValue_keepsTheEqualsSign() async throws {
        let endpoint = Request<Order>(.get, "orders", query: [URLQueryItem(name: "q", value: "")])
        let request = try await sentRequest(endpoint)
        XCTAssertEqual(request?.url?.query, "q=")
    }

    func test_baseURLQuery_comesBeforeEndpointQuery() async throws {
        let endpoint = Request<Order>(.get, "orders", query: [URLQueryItem(name: "q", value: "x")])
        let request = try await sentRequest(endpoint, baseURL: "http://h/api?key=1")
        XCTAssertEqual(request?.url?.absoluteString, "http://h/api/orders?key=1&q=x")
    }

    func test_noQueryItems_sendsNoQuestionMark() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1"))
        XCTAssertNil(request?.url?.query)
    }

    func test_summary_namesMethodPathAndEncodedQuery() throws {
        let endpoint = Request<Order>(.get, "orders", query: [URLQueryItem(name: "q", value: "a b")])
        let configuration = Client.Configuration(baseURL: URL(string: "http://h/api/")!)
        let prepared = try RequestBuilder(configuration: configuration).prepare(endpoint)
        XCTAssertEqual(prepared.summary.description, "GET http://h/api/orders?q=a%20b")
        XCTAssertEqual(prepared.summary.path, "orders")
    }

    // MARK: - Method and timeout

    func test_method_isSentAsItsToken() async throws {
        let request = try await sentRequest(Request<Order>(.put, "orders/1"))
        XCTAssertEqual(request?.httpMethod, "PUT")
    }

    func test_customMethodToken_isSent() async throws {
        let request = try await sentRequest(Request<Order>("PURGE", "orders/1"))
        XCTAssertEqual(request?.httpMethod, "PURGE")
    }

    func test_invalidMethodToken_isInvalidRequestAndNothingIsSent() async throws {
        let (error, requests) = try await failedSend(Request<Order>("GE T", "orders/1"))
        let parts = invalidRequestParts(error)
        XCTAssertEqual(parts?.field, "method")
        XCTAssertEqual(parts?.reason, "\"GE T\" is not a valid HTTP method token")
        XCTAssertEqual(requests.count, 0)
    }

    func test_emptyMethod_isInvalidRequest() async throws {
        let (error, requests) = try await failedSend(Request<Order>("", "orders/1"))
        XCTAssertEqual(invalidRequestParts(error)?.field, "method")
        XCTAssertEqual(requests.count, 0)
    }

    func test_timeout_defaultsToSixtySeconds() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1"))
        XCTAssertEqual(request?.timeoutInterval, 60)
    }

    /// URLSession on Linux keeps whole seconds (0.2 s would become no time at all): rounded up.
    func test_timeout_isTheConfiguredTimeout_roundedUpToWholeSecondsOnLinux() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1")) { $0.timeout = .milliseconds(2500) }
        let short = try await sentRequest(Request<Order>(.get, "orders/1")) { $0.timeout = .milliseconds(200) }
        #if canImport(FoundationNetworking)
        XCTAssertEqual([request?.timeoutInterval, short?.timeoutInterval], [3, 1])
        #else
        XCTAssertEqual([request?.timeoutInterval, short?.timeoutInterval], [2.5, 0.2])
        #endif
    }

    // MARK: - Bodies

    func test_jsonBody_setsContentTypeJSON() async throws {
        let body = NewReview(facilityId: 1, content: "良い", rating: 5)
        let request = try await sentRequest(Request<Order>(.post, "facilities/1/reviews", body: .json(body)))
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Content-Type"), "application/json")
    }

    func test_jsonBody_isEncodedWithTheClientsEncoder() async throws {
        let body = NewReview(facilityId: 1, content: "良い", rating: 5)
        let request = try await sentRequest(Request<Order>(.post, "facilities/1/reviews", body: .json(body))) { configuration in
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
        let client = try makeClient(transport: transport) { $0.encoder.outputFormatting = [.sortedKeys] }
        _ = try await client.send(Request<Order>(.post, "orders", body: .json(["b": 2, "a": 1]))).value
        XCTAssertEqual(captured.events, [.data(Data(#"{"a":1,"b":2}"#.utf8))])
    }

    func test_formBody_encodesSpaceAsPlusAndAmpersandAsPercent26() async throws {
        let request = try await sentRequest(Request<Order>(.post, "search", body: .form([(name: "q", value: "a b&c")])))
        XCTAssertEqual(request?.httpBody.map { String(decoding: $0, as: UTF8.self) }, "q=a+b%26c")
    }

    func test_formBody_encodesNamesKeepsOrderAndEncodesNonASCII() async throws {
        let fields: [(name: String, value: String)] = [("b", "1"), ("a=", "x+y"), ("名", "山田"), ("t", "*-._~")]
        let request = try await sentRequest(Request<Order>(.post, "search", body: .form(fields)))
        XCTAssertEqual(
            request?.httpBody.map { String(decoding: $0, as: UTF8.self) },
            "b=1&a%3D=x%2By&%E5%90%8D=%E5%B1%B1%E7%94%B0&t=*-._%7E"
        )
    }

    func test_formBody_setsFormContentType() async throws {
        let request = try await sentRequest(Request<Order>(.post, "tokens", body: .form([(name: "a", value: "1")])))
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Content-Type"), "application/x-www-form-urlencoded")
    }

    func test_dataBody_keepsItsContentTypeAndBytes() async throws {
        let bytes = Data([0x89, 0x50, 0x4E, 0x47])
        let request = try await sentRequest(Request<Order>(.post, "photos", body: .data(bytes, contentType: "image/png")))
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Content-Type"), "image/png")
        XCTAssertEqual(request?.httpBody, bytes)
    }

    func test_endpointContentTypeHeader_winsOverTheBodysType() async throws {
        let endpoint = Request<Order>(.post, "orders", headers: ["content-type": "application/vnd.orders+json"],
                                      body: .json(["a": 1]))
        let request = try await sentRequest(endpoint)
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Content-Type"), "application/vnd.orders+json")
    }

    func test_noBody_sendsNoContentTypeAndNoBody() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1"))
        XCTAssertNil(request?.value(forHTTPHeaderField: "Content-Type"))
        XCTAssertNil(request?.httpBody)
    }

    func test_encodableThatThrows_isInvalidRequestBodyAndNothingIsSent() async throws {
        let endpoint = Request<Order>(.post, "orders", body: .json(Unencodable()))
        let (error, requests) = try await failedSend(endpoint)
        let parts = invalidRequestParts(error)
        XCTAssertEqual(parts?.field, "body")
        XCTAssertEqual(parts?.reason, "it does not encode: EncodingFailure()")
        XCTAssertEqual(requests.count, 0)
    }
}
