@testable import BatonPromise
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// APIError's sentences and accessors, RequestSummary, and the response helpers they use.
final class APIErrorClientTests: XCTestCase {
    private let order = summary(.get, "orders/1")

    // MARK: Descriptions

    func test_invalidRequest_description() {
        let error = APIError.invalidRequest(order, field: #"header "X Bad""#, reason: "the name is not an HTTP token")
        XCTAssertEqual(error.description, #"GET http://h/orders/1 could not be sent: the header "X Bad" is invalid (the name is not an HTTP token)."#)
    }

    func test_transport_descriptionNamesTheURLErrorInWords() {
        let error = APIError.transport(order, URLError(.timedOut))
        XCTAssertEqual(error.description, "GET http://h/orders/1 failed before a response arrived: the request timed out (URLError.Code -1001).")
    }

    func test_transport_aRefusedCertificate_isSaidSo_withWhy() {
        let error = APIError.transport(order, URLError(.serverCertificateHasBadDate, detail: "the certificate of api.example.com:443 expired on 2021-01-01 00:00:00 UTC"))
        XCTAssertEqual(error.description, "GET http://h/orders/1 failed before a response arrived: the server's certificate was refused: "
            + "the certificate of api.example.com:443 expired on 2021-01-01 00:00:00 UTC (URLError.Code -1201).")
    }

    func test_transport_descriptionOfAnUnnamedCode_givesTheNumber() {
        let error = APIError.transport(order, URLError(.cannotDecodeRawData))
        XCTAssertEqual(error.description, "GET http://h/orders/1 failed before a response arrived: URLError -1015 (URLError.Code -1015).")
    }

    func test_unacceptableStatus_withoutMessage_quotesTheBodyStart() {
        let response = HTTPResponse(statusCode: 503, body: Data("maintenance".utf8))
        let error = APIError.unacceptableStatus(order, response, message: nil)
        XCTAssertEqual(error.description, "GET http://h/orders/1 failed: the server answered 503 Service Unavailable (body starts with maintenance).")
    }

    func test_unacceptableStatus_withoutMessageOrBody_endsAfterTheStatus() {
        let error = APIError.unacceptableStatus(order, HTTPResponse(statusCode: 404), message: nil)
        XCTAssertEqual(error.description, "GET http://h/orders/1 failed: the server answered 404 Not Found.")
    }

    func test_cancelled_description() {
        XCTAssertEqual(APIError.cancelled(order).description, "GET http://h/orders/1 was cancelled.")
    }

    func test_decodingFailed_withCodingPath_saysWhere() {
        let response = HTTPResponse.json("[1]")
        let error = APIError.decodingFailed(order, response, type: "Array<Order>", codingPath: "[0]", reason: "expected Dictionary")
        XCTAssertEqual(error.description, "GET http://h/orders/1 returned a body that does not decode as Array<Order>: expected Dictionary at [0] (body starts with [1]).")
    }

    // MARK: Accessors

    func test_request_isTheSummaryOfEveryCase() {
        let response = HTTPResponse(statusCode: 500)
        let errors: [APIError] = [
            .invalidRequest(order, field: "body", reason: "r"),
            .transport(order, URLError(.timedOut)),
            .unacceptableStatus(order, response, message: nil),
            .unacceptableContentType(order, response, contentType: nil, acceptable: []),
            .decodingFailed(order, response, type: "T", codingPath: "", reason: "r"),
            .cancelled(order),
        ]
        XCTAssertEqual(errors.map(\.request), Array(repeating: order, count: 6))
    }

    func test_responseAndStatusCode_areThoseOfTheServersAnswer() {
        let response = HTTPResponse(statusCode: 415)
        XCTAssertEqual(APIError.unacceptableStatus(order, response, message: nil).statusCode, 415)
        XCTAssertEqual(APIError.unacceptableContentType(order, response, contentType: nil, acceptable: []).statusCode, 415)
        XCTAssertEqual(APIError.decodingFailed(order, response, type: "T", codingPath: "", reason: "r").statusCode, 415)
    }

    func test_responseAndStatusCode_areNilWithoutAnAnswer() {
        XCTAssertNil(APIError.transport(order, URLError(.timedOut)).response)
        XCTAssertNil(APIError.invalidRequest(order, field: "body", reason: "r").statusCode)
        XCTAssertNil(APIError.cancelled(order).statusCode)
    }

    func test_cancelled_countsAsACancellation() {
        XCTAssertTrue(APIError.cancelled(order).isCancellation)
        XCTAssertFalse(APIError.transport(order, URLError(.cancelled)).isCancellation)
    }

    func test_promiseRejectedWithCancelledAPIError_isInTheCancelledState() {
        XCTAssertEqual(Promise<Int>(error: APIError.cancelled(order)).state, .cancelled)
    }

    // MARK: RequestSummary

    /// The host and the base URL's path say where a request went; a password never shows.
    func test_summary_isMethodAndURL_withoutUserOrPassword() {
        let summary = RequestSummary(method: .post, url: URL(string: "https://user:pw@h:8443/api/orders?q=a%20b"), path: "orders")
        XCTAssertEqual(summary.description, "POST https://h:8443/api/orders?q=a%20b")
    }

    func test_summary_withoutURL_usesThePath() {
        XCTAssertEqual(RequestSummary(method: .delete, url: nil, path: "reviews/9").description, "DELETE /reviews/9")
    }

    func test_summary_keepsPercentEncoding() {
        XCTAssertEqual(summary(.get, "orders/a%2Fb").description, "GET http://h/orders/a%2Fb")
    }

    // MARK: Server messages and reason phrases

    func test_serverMessage_prefersMessage() {
        let response = HTTPResponse.json(#"{"message":"m","error_description":"d","error":"e"}"#)
        XCTAssertEqual(response.serverMessage, "m")
    }

    func test_serverMessage_fallsBackToErrorDescriptionThenError() {
        XCTAssertEqual(HTTPResponse.json(#"{"error_description":"token expired","error":"invalid_token"}"#).serverMessage, "token expired")
        XCTAssertEqual(HTTPResponse.json(#"{"error":"invalid_token"}"#).serverMessage, "invalid_token")
    }

    func test_serverMessage_isNilForANonJSONOrNonObjectBody() {
        XCTAssertNil(HTTPResponse(statusCode: 500, body: Data("oops".utf8)).serverMessage)
        XCTAssertNil(HTTPResponse.json(#"["message"]"#).serverMessage)
    }

    func test_reasonPhrase_422_isUnprocessableEntity() {
        XCTAssertEqual(HTTPResponse(statusCode: 422).reasonPhrase, "Unprocessable Content")  // RFC 9110's name
    }

    /// `.capitalized` turns Foundation's "OK", "URI Too Long" and "HTTP Version Not Supported"
    /// into "Ok", "Uri Too Long" and "Http Version Not Supported".
    func test_reasonPhrase_keepsAcronyms() {
        XCTAssertEqual(HTTPResponse(statusCode: 200).reasonPhrase, "OK")
        XCTAssertEqual(HTTPResponse(statusCode: 414).reasonPhrase, "URI Too Long")
        XCTAssertEqual(HTTPResponse(statusCode: 505).reasonPhrase, "HTTP Version Not Supported")
    }
}
