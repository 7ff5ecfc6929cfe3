@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// How responses become values: JSON for Decodable, the bytes for Data, UTF-8 text for String,
/// nothing for Void.
final class DecodingClientTests: XCTestCase {

    private func stubbedClient(answering response: HTTPResponse, configure: (inout Client.Configuration) -> Void = { _ in }) throws -> Client {
        try makeClient(transport: constantStub(response), configure: configure)
    }

    // MARK: Decodable

    func test_decodable_decodesJSONWithTheClientsDecoder() async throws {
        let client = try stubbedClient(answering: .json(Fixtures.reviewJSON)) { $0.decoder = Fixtures.snakeCaseDecoder() }
        let review = try await client.send(Request<Review>(.get, "reviews/9")).value
        XCTAssertEqual(review, Fixtures.review)
    }

    func test_decodable_decodesOrder() async throws {
        let client = try stubbedClient(answering: .json(Fixtures.orderJSON))
        let order = try await client.send(Request<Order>(.get, "orders/1")).value
        XCTAssertEqual(order, Fixtures.order)
    }

    func test_endpointDecoder_overridesTheClientsDecoder() async throws {
        let client = try stubbedClient(answering: .json(Fixtures.reviewJSON))  // client decoder: default keys
        var endpoint = Request<Review>(.get, "reviews/9")
        endpoint.decoder = Fixtures.snakeCaseDecoder()
        let review = try await client.send(endpoint).value
        XCTAssertEqual(review, Fixtures.review)
    }

    func test_endpointDecoder_isUsedInsteadOfASnakeCaseClientDecoder() async throws {
        let camelCaseJSON = #"{"id":9,"facilityId":1,"content":"良い","rating":5}"#
        let client = try stubbedClient(answering: .json(camelCaseJSON)) { $0.decoder = Fixtures.snakeCaseDecoder() }
        var endpoint = Request<Review>(.get, "reviews/9")
        endpoint.decoder = JSONDecoder()
        let review = try? await client.send(endpoint).value
        XCTAssertEqual(review, Fixtures.review)
    }

    func test_decodableArray_decodes() async throws {
        let client = try stubbedClient(answering: .json("[\(Fixtures.orderJSON)]"))
        let orders = try await client.send(Request<[Order]>(.get, "order_search")).value
        XCTAssertEqual(orders, [Fixtures.order])
    }

    // MARK: Data

    func test_data_returnsTheBodyBytesOfAnyContentType() async throws {
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
        let client = try stubbedClient(answering: HTTPResponse(statusCode: 200, headers: ["Content-Type": "image/png"], body: bytes))
        let data = try await client.send(Request<Data>(.get, "photos/1")).value
        XCTAssertEqual(data, bytes)
    }

    func test_data_withoutContentType_isAccepted() async throws {
        let client = try stubbedClient(answering: HTTPResponse(statusCode: 200, body: Data("raw".utf8)))
        let data = try await client.send(Request<Data>(.get, "photos/1")).value
        XCTAssertEqual(data, Data("raw".utf8))
    }

    // MARK: String

    func test_stringEndpoint_returnsTheBodyAsUTF8Text() async throws {
        let response = HTTPResponse(statusCode: 200, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Data("こんにちは".utf8))
        let text = try await stubbedClient(answering: response).send(TextEndpoint()).value
        XCTAssertEqual(text, "こんにちは")
    }

    func test_stringEndpoint_invalidUTF8_isDecodingFailed() async throws {
        let response = HTTPResponse(statusCode: 200, headers: ["Content-Type": "text/plain"], body: Data([0x61, 0xFF, 0xFE]))
        let error = await awaitError(try stubbedClient(answering: response).send(TextEndpoint()))
        guard let matched = error as? APIError, matched.kind == .decodingFailed else {
            return XCTFail("expected decodingFailed, got \(String(describing: error))")
        }
        let request = matched.request
        let type = matched.decodedType!
        let codingPath = matched.codingPath!
        let reason = matched.reason!
        XCTAssertEqual(request.description, "GET http://h/greeting")
        XCTAssertEqual(type, "String")
        XCTAssertEqual(codingPath, "")
        XCTAssertEqual(reason, "the body is not valid UTF-8")
    }

    /// The Endpoint documentation says a `String` response receives the body as it is; `Request`
    /// has no `String` initialiser, so `Request<String>` takes the `Decodable` one.
    func test_requestOfString_receivesTheBodyAsText() async throws {
        let response = HTTPResponse(statusCode: 200, headers: ["Content-Type": "text/plain"], body: Data("hello".utf8))
        let text = try await stubbedClient(answering: response).send(Request<String>(.get, "greeting")).value
        XCTAssertEqual(text, "hello")
    }

    // MARK: Void

    func test_void_204WithEmptyBodyAndNoContentType_succeeds() async throws {
        let transport = constantStub(HTTPResponse(statusCode: 204))
        let client = try makeClient(transport: transport)
        try await client.send(Request<Void>(.delete, "reviews/9")).value
        XCTAssertEqual(transport.requests.map(\.httpMethod), ["DELETE"])
    }

    func test_void_ignoresABodyOfAnyContentType() async throws {
        let response = HTTPResponse(statusCode: 200, headers: ["Content-Type": "text/html"], body: Data("<p>ok</p>".utf8))
        let call = try stubbedClient(answering: response).send(Request<Void>(.post, "logout"))
        try await call.value
        XCTAssertEqual(call.state, .fulfilled)
    }

    func test_decodable_204WithEmptyBody_passesContentTypeButFailsDecoding() async throws {
        let error = await awaitError(try stubbedClient(answering: HTTPResponse(statusCode: 204)).send(Request<Order>(.get, "orders/1")))
        guard let matched = error as? APIError, matched.kind == .decodingFailed else {
            return XCTFail("expected decodingFailed, got \(String(describing: error))")
        }
        let response = matched.response!
        let type = matched.decodedType!
        XCTAssertEqual(response.statusCode, 204)
        XCTAssertEqual(type, "Order")
    }
}
