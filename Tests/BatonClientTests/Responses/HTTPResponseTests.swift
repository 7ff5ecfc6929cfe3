@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// HTTPResponse: header fields read the same whether they still sit in URLSession's response
/// or were given as a dictionary; the media type is lower-cased and stripped of parameters.
final class HTTPResponseTests: XCTestCase {
    private func fromURLSession(_ headers: [String: String]) throws -> HTTPResponse {
        let url = try XCTUnwrap(URL(string: "http://h/orders/1"))
        let response = try XCTUnwrap(HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: headers))
        return HTTPResponse(response, body: Data("{}".utf8))
    }

    func test_responseFromURLSession_readsAFieldInAnyCase() throws {
        let response = try fromURLSession(["Content-Type": "application/json", "Retry-After": "3"])
        XCTAssertEqual(response.value(forHeader: "content-type"), "application/json")
        XCTAssertEqual(response.value(forHeader: "RETRY-AFTER"), "3")
        XCTAssertNil(response.value(forHeader: "Location"))
    }

    func test_responseFromURLSession_listsEveryField() throws {
        let response = try fromURLSession(["Content-Type": "application/json", "X-Request-Id": "7"])
        XCTAssertEqual(response.headers["Content-Type"], "application/json")
        XCTAssertEqual(response.headers["X-Request-Id"], "7")
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.url?.absoluteString, "http://h/orders/1")
    }

    func test_settingHeaders_replacesTheFieldsFromURLSession() throws {
        var response = try fromURLSession(["Content-Type": "application/json"])
        response.headers["X-Added"] = "yes"
        XCTAssertEqual(response.value(forHeader: "x-added"), "yes")
        XCTAssertEqual(response.value(forHeader: "content-type"), "application/json")
        response.headers = [:]
        XCTAssertNil(response.value(forHeader: "Content-Type"))
    }

    func test_dictionaryHeaders_readInAnyCase() {
        let response = HTTPResponse(statusCode: 200, headers: ["Content-Type": "text/plain"])
        XCTAssertEqual(response.value(forHeader: "CONTENT-TYPE"), "text/plain")
    }

    func test_mediaType_dropsParameters() {
        XCTAssertEqual(HTTPResponse.json("{}").mediaType, "application/json")
    }

    func test_mediaType_isLowerCasedAndTrimmed() {
        let response = HTTPResponse(statusCode: 200, headers: ["Content-Type": " Application/Problem+JSON\t; charset=UTF-8"])
        XCTAssertEqual(response.mediaType, "application/problem+json")
    }

    func test_mediaType_ofAPlainType_isTheType() {
        XCTAssertEqual(HTTPResponse(statusCode: 200, headers: ["Content-Type": "image/jpeg"]).mediaType, "image/jpeg")
    }

    func test_mediaType_withoutContentType_isNil() {
        XCTAssertNil(HTTPResponse(statusCode: 204).mediaType)
    }

    func test_mediaType_ofAnEmptyOrBlankContentType_isNil() {
        let values = ["", "  ", "; charset=utf-8"].map { HTTPResponse(statusCode: 200, headers: ["Content-Type": $0]).mediaType }
        XCTAssertEqual(values, [nil, nil, nil])
    }
}
