@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// Status codes, content types and decoding failures, as the client validates them.
final class ValidationClientTests: XCTestCase {

    private func apiError<E: Endpoint>(_ endpoint: E, answering response: HTTPResponse) async throws -> APIError? {
        let client = try makeClient(transport: constantStub(response), retriers: [])
        let error = await awaitError(client.send(endpoint))
        XCTAssertNotNil(error as? APIError, "expected an APIError, got \(String(describing: error))")
        return error as? APIError
    }

    private func postReview() -> Request<Review> {
        Request(.post, "facilities/\(1)/reviews", body: .json(NewReview(facilityId: 1, content: "良い", rating: 9)))
    }

    private let ratingError = HTTPResponse.json(#"{"message":"rating must be between 1 and 5"}"#, statusCode: 422)

    // MARK: Status

    func test_422WithMessage_isUnacceptableStatusWithTheServersMessage() async throws {
        let error = try await apiError(postReview(), answering: ratingError)
        guard let matched = error, matched.kind == .unacceptableStatus else {
            return XCTFail("expected unacceptableStatus, got \(String(describing: error))")
        }
        let request = matched.request
        let response = matched.response!
        let message = matched.serverMessage
        XCTAssertEqual(request.description, "POST http://h/facilities/1/reviews")
        XCTAssertEqual(response.statusCode, 422)
        XCTAssertEqual(error?.statusCode, 422)
        XCTAssertEqual(message, "rating must be between 1 and 5")
    }

    func test_422Description_isTheExactSentence() async throws {
        let error = try await apiError(postReview(), answering: ratingError)
        XCTAssertEqual(
            error?.description,
            #"POST http://h/facilities/1/reviews failed: the server answered 422 Unprocessable Content ("rating must be between 1 and 5")."#
        )
    }

    func test_statusIsCheckedBeforeContentType() async throws {
        let response = HTTPResponse(statusCode: 500, headers: ["Content-Type": "text/html"], body: Data("<h1>oops</h1>".utf8))
        let error = try await apiError(Request<Order>(.get, "orders/1"), answering: response)
        guard let matched = error, matched.kind == .unacceptableStatus else {
            return XCTFail("expected unacceptableStatus, got \(String(describing: error))")
        }
        let message = matched.serverMessage
        XCTAssertNil(message)
        XCTAssertEqual(error?.description, "GET http://h/orders/1 failed: the server answered 500 Internal Server Error (body starts with <h1>oops</h1>).")
    }

    func test_customAcceptableStatusCodes_acceptAListedErrorStatus() async throws {
        var endpoint = Request<Order>(.get, "orders/1")
        endpoint.acceptableStatusCodes = 200..<500
        let client = try makeClient(transport: constantStub(.json(Fixtures.orderJSON, statusCode: 404)))
        let order = try await client.send(endpoint).value
        XCTAssertEqual(order, Fixtures.order)
    }

    func test_customAcceptableStatusCodes_rejectAnUnlistedSuccessStatus() async throws {
        var endpoint = Request<Order>(.post, "orders")
        endpoint.acceptableStatusCodes = 201..<202
        let error = try await apiError(endpoint, answering: .json(Fixtures.orderJSON, statusCode: 200))
        guard let matched = error, matched.kind == .unacceptableStatus else {
            return XCTFail("expected unacceptableStatus, got \(String(describing: error))")
        }
        let response = matched.response!
        XCTAssertEqual(response.statusCode, 200)
    }

    // MARK: Content type

    func test_htmlForADecodable_isUnacceptableContentType() async throws {
        let response = HTTPResponse(statusCode: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: Data("<html>".utf8))
        let error = try await apiError(Request<Order>(.get, "orders/1"), answering: response)
        guard let matched = error, matched.kind == .unacceptableContentType else {
            return XCTFail("expected unacceptableContentType, got \(String(describing: error))")
        }
        let received = matched.response!
        let contentType = matched.contentType
        let acceptable = matched.acceptableContentTypes
        XCTAssertEqual(received.statusCode, 200)
        XCTAssertEqual(contentType, "text/html; charset=utf-8")
        XCTAssertEqual(acceptable, ["application/json", "application/*+json"])
    }

    func test_unacceptableContentType_descriptionNamesWhatCameAndWhatIsAccepted() async throws {
        let response = HTTPResponse(statusCode: 200, headers: ["Content-Type": "text/html"], body: Data("<html>".utf8))
        let error = try await apiError(Request<Order>(.get, "orders/1"), answering: response)
        XCTAssertEqual(error?.description, #"GET http://h/orders/1 returned "text/html", but the endpoint accepts application/json, application/*+json (body starts with <html>)."#)
    }

    func test_missingContentTypeForADecodable_isUnacceptableContentTypeWithNil() async throws {
        let response = HTTPResponse(statusCode: 200, body: Data(Fixtures.orderJSON.utf8))
        let error = try await apiError(Request<Order>(.get, "orders/1"), answering: response)
        guard let matched = error, matched.kind == .unacceptableContentType else {
            return XCTFail("expected unacceptableContentType, got \(String(describing: error))")
        }
        let contentType = matched.contentType
        XCTAssertNil(contentType)
        XCTAssertTrue(error?.description.hasPrefix(#"GET http://h/orders/1 returned no Content-Type, but the endpoint accepts application/json, application/*+json (body starts with {"id":1,"#) ?? false, "\(String(describing: error))")
    }

    func test_problemJSON_isAcceptedByTheStarPlusJSONPattern() async throws {
        let response = HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/problem+json"],
                                    body: Data(Fixtures.orderJSON.utf8))
        let order = try await makeClient(transport: constantStub(response)).send(Request<Order>(.get, "orders/1")).value
        XCTAssertEqual(order, Fixtures.order)
    }

    func test_contentTypeWithUpperCaseAndParameters_isAccepted() async throws {
        let response = HTTPResponse(statusCode: 200, headers: ["content-type": "Application/JSON ; Charset=UTF-8"],
                                    body: Data(Fixtures.orderJSON.utf8))
        let order = try await makeClient(transport: constantStub(response)).send(Request<Order>(.get, "orders/1")).value
        XCTAssertEqual(order, Fixtures.order)
    }

    func test_customAcceptableContentTypes_areEnforced() async throws {
        var endpoint = Request<Order>(.get, "orders/1")
        endpoint.acceptableContentTypes = ["application/vnd.orders+json"]
        let error = try await apiError(endpoint, answering: .json(Fixtures.orderJSON))
        guard let matched = error, matched.kind == .unacceptableContentType else {
            return XCTFail("expected unacceptableContentType, got \(String(describing: error))")
        }
        let contentType = matched.contentType
        let acceptable = matched.acceptableContentTypes
        XCTAssertEqual(contentType, "application/json; charset=utf-8")
        XCTAssertEqual(acceptable, ["application/vnd.orders+json"])
    }

    // MARK: Decoding failures

    private let orderWithoutSubtotal = #"{"id":7,"name":"Smith","ordersum":2,"bikou":""}"#

    func test_missingKey_isDecodingFailedNamingTypeAndKey() async throws {
        let error = try await apiError(Request<Order>(.get, "orders/7"), answering: .json(orderWithoutSubtotal))
        guard let matched = error, matched.kind == .decodingFailed else {
            return XCTFail("expected decodingFailed, got \(String(describing: error))")
        }
        let request = matched.request
        let response = matched.response!
        let type = matched.decodedType!
        let codingPath = matched.codingPath!
        let reason = matched.reason!
        XCTAssertEqual(request.description, "GET http://h/orders/7")
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(type, "Order")
        XCTAssertEqual(codingPath, "")
        XCTAssertEqual(reason, #"key "subtotal" is missing"#)
    }

    func test_missingKey_descriptionNamesTypeKeyAndBodyStart() async throws {
        let error = try await apiError(Request<Order>(.get, "orders/7"), answering: .json(orderWithoutSubtotal))
        XCTAssertEqual(
            error?.description,
            #"GET http://h/orders/7 returned a body that does not decode as Order: key "subtotal" is missing (body starts with {"id":7,"name":"Smith","ordersum":2,"bikou":""})."#
        )
    }

    func test_missingKeyInAnArrayElement_namesTheElementsPath() async throws {
        let body = "[\(Fixtures.orderJSON),\(orderWithoutSubtotal)]"
        let error = try await apiError(Request<[Order]>(.get, "order_search"), answering: .json(body))
        guard let matched = error, matched.kind == .decodingFailed else {
            return XCTFail("expected decodingFailed, got \(String(describing: error))")
        }
        let type = matched.decodedType!
        let codingPath = matched.codingPath!
        let reason = matched.reason!
        XCTAssertEqual(type, "Array<Order>")
        XCTAssertEqual(codingPath, "[1]")
        XCTAssertEqual(reason, #"key "subtotal" is missing"#)
    }

    func test_typeMismatch_namesTheFieldsPath() async throws {
        let body = #"{"id":"seven","name":"Smith","ordersum":2,"subtotal":1,"bikou":""}"#
        let error = try await apiError(Request<Order>(.get, "orders/7"), answering: .json(body))
        guard let matched = error, matched.kind == .decodingFailed else {
            return XCTFail("expected decodingFailed, got \(String(describing: error))")
        }
        let codingPath = matched.codingPath!
        let reason = matched.reason!
        XCTAssertEqual(codingPath, "id")
        XCTAssertTrue(reason.hasPrefix("expected Int: "), reason)
    }

    func test_nullValue_isReportedAsFoundNull() async throws {
        let body = #"{"id":7,"name":null,"ordersum":2,"subtotal":1,"bikou":""}"#
        let error = try await apiError(Request<Order>(.get, "orders/7"), answering: .json(body))
        guard let matched = error, matched.kind == .decodingFailed else {
            return XCTFail("expected decodingFailed, got \(String(describing: error))")
        }
        let codingPath = matched.codingPath!
        let reason = matched.reason!
        XCTAssertEqual(codingPath, "name")
        XCTAssertEqual(reason, "expected String but found null")
    }

    func test_bodyPreview_isCutAfter120CharactersWithAnEllipsis() async throws {
        let long = #"{"id":7,"name":""# + String(repeating: "x", count: 200) + #""}"#
        let error = try await apiError(Request<Order>(.get, "orders/7"), answering: .json(long))
        let preview = String(long.prefix(120)) + "..."
        XCTAssertEqual(
            error?.description,
            #"GET http://h/orders/7 returned a body that does not decode as Order: key "ordersum" is missing (body starts with "# + preview + ")."
        )
    }

    // MARK: Validation.accepts

    func test_accepts_starStarAcceptsAnyTypeAndNone() {
        XCTAssertTrue(Validation.accepts("application/json", ["*/*"]))
        XCTAssertTrue(Validation.accepts("image/png", ["text/plain", "*/*"]))
        XCTAssertTrue(Validation.accepts(nil, ["*/*"]))
    }

    func test_accepts_nilMediaTypeIsRejectedWithoutStarStar() {
        XCTAssertFalse(Validation.accepts(nil, ["application/json"]))
        XCTAssertFalse(Validation.accepts(nil, ["application/*"]))
    }

    func test_accepts_typeStarMatchesEverySubtypeOfThatTypeOnly() {
        XCTAssertTrue(Validation.accepts("text/plain", ["text/*"]))
        XCTAssertTrue(Validation.accepts("text/html", ["text/*"]))
        XCTAssertFalse(Validation.accepts("application/json", ["text/*"]))
    }

    func test_accepts_exactPatternMatchesOnlyThatType() {
        XCTAssertTrue(Validation.accepts("application/json", ["application/json"]))
        XCTAssertFalse(Validation.accepts("application/jsonp", ["application/json"]))
        XCTAssertFalse(Validation.accepts("text/json", ["application/json"]))
    }

    func test_accepts_patternIsComparedWithoutCase() {
        XCTAssertTrue(Validation.accepts("application/json", ["Application/JSON"]))
    }

    func test_accepts_suffixPatternMatchesStructuredSyntaxSuffix() {
        XCTAssertTrue(Validation.accepts("application/problem+json", ["application/*+json"]))
        XCTAssertTrue(Validation.accepts("application/vnd.api+json", ["application/*+json"]))
        XCTAssertFalse(Validation.accepts("application/json", ["application/*+json"]))
        XCTAssertFalse(Validation.accepts("application/problem+xml", ["application/*+json"]))
        XCTAssertFalse(Validation.accepts("text/problem+json", ["application/*+json"]))
    }

    func test_accepts_emptyPatternListAcceptsNothing() {
        XCTAssertFalse(Validation.accepts("application/json", []))
    }

    // MARK: HTTPResponse helpers

    func test_mediaType_dropsParametersAndLowercases() {
        let response = HTTPResponse(statusCode: 200, headers: ["CONTENT-TYPE": " Text/HTML ; charset=UTF-8"])
        XCTAssertEqual(response.mediaType, "text/html")
    }

    func test_valueForHeader_ignoresCase() {
        let response = HTTPResponse(statusCode: 200, headers: ["retry-after": "3"])
        XCTAssertEqual(response.value(forHeader: "Retry-After"), "3")
    }
}
