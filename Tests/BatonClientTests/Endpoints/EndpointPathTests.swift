@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// EndpointPath: each interpolated value is one percent-encoded segment; literal text is kept.
/// Each test checks the encoded path and the URL the transport receives.
final class EndpointPathClientTests: XCTestCase {
    /// The URL a GET of `path` reaches, from a client on `baseURL`.
    private func sentURL(_ path: EndpointPath, baseURL: String = "http://h/") async throws -> String? {
        let transport = constantStub(HTTPResponse(statusCode: 200))
        let client = try makeClient(baseURL: baseURL, transport: transport)
        _ = try await client.send(Request<Data>(.get, path)).value
        return transport.requests.first?.url?.absoluteString
    }

    // MARK: Interpolated values

    func test_interpolatedSlash_staysInOneSegment() async throws {
        let path: EndpointPath = "orders/\("a/b")"
        XCTAssertEqual(path.encoded, "orders/a%2Fb")
        let url = try await sentURL(path)
        XCTAssertEqual(url, "http://h/orders/a%2Fb")
    }

    func test_interpolatedQuestionMark_isEncodedNotAQuery() async throws {
        let path: EndpointPath = "orders/\("1?admin=true")"
        XCTAssertEqual(path.encoded, "orders/1%3Fadmin=true")
        let url = try await sentURL(path)
        XCTAssertEqual(url, "http://h/orders/1%3Fadmin=true")
    }

    func test_interpolatedHash_isEncodedNotAFragment() async throws {
        let path: EndpointPath = "orders/\("1#top")"
        XCTAssertEqual(path.encoded, "orders/1%23top")
        let url = try await sentURL(path)
        XCTAssertEqual(url, "http://h/orders/1%23top")
    }

    func test_interpolatedPercent_isEncodedItself() async throws {
        let path: EndpointPath = "orders/\("100%2F")"
        XCTAssertEqual(path.encoded, "orders/100%252F")
        let url = try await sentURL(path)
        XCTAssertEqual(url, "http://h/orders/100%252F")
    }

    func test_interpolatedSpace_isPercent20() async throws {
        let path: EndpointPath = "search/\("a b")"
        XCTAssertEqual(path.encoded, "search/a%20b")
        let url = try await sentURL(path)
        XCTAssertEqual(url, "http://h/search/a%20b")
    }

    /// `%2E%2E` alone was not enough: servers that decode `%2E` before routing climb anyway.
    func test_interpolatedDotDot_isRefusedAndNothingIsSent() async throws {
        try await assertRefused("orders/\("..")/reviews", reason: #"a value is "..", which would address another resource"#)
    }

    func test_interpolatedDot_isRefusedAndNothingIsSent() async throws {
        try await assertRefused("orders/\(".")/reviews", reason: #"a value is ".", which would address another resource"#)
    }

    /// An empty value would leave `orders//reviews`, which servers that merge slashes route to
    /// `orders/reviews`.
    func test_interpolatedEmptyValue_isRefusedAndNothingIsSent() async throws {
        try await assertRefused("orders/\("")/reviews", reason: #"a value is empty, which would leave an empty segment ("//")"#)
    }

    func test_segmentsInitWithADotDotSegment_isRefused() async throws {
        try await assertRefused(EndpointPath(segments: ["orders", ".."]), reason: #"a value is "..", which would address another resource"#)
    }

    private func assertRefused(_ path: EndpointPath, reason: String, file: StaticString = #filePath, line: UInt = #line) async throws {
        let transport = constantStub(HTTPResponse(statusCode: 200))
        let error = await awaitError(try makeClient(baseURL: "http://h/", transport: transport).send(Request<Data>(.get, path))) as? APIError
        XCTAssertEqual(error?.kind, .invalidRequest, file: file, line: line)
        XCTAssertEqual(error?.field, "path", file: file, line: line)
        XCTAssertEqual(error?.reason, reason, file: file, line: line)
        XCTAssertEqual(transport.requests.count, 0, "nothing was sent", file: file, line: line)
    }

    func test_interpolatedDotsInsideLongerValue_areKept() async throws {
        let path: EndpointPath = "files/\("v1..2.txt")"
        XCTAssertEqual(path.encoded, "files/v1..2.txt")
        let url = try await sentURL(path)
        XCTAssertEqual(url, "http://h/files/v1..2.txt")
    }

    func test_interpolatedJapanese_isPercentEncodedUTF8() async throws {
        let path: EndpointPath = "users/\("山田")"
        XCTAssertEqual(path.encoded, "users/%E5%B1%B1%E7%94%B0")
        let url = try await sentURL(path)
        XCTAssertEqual(url, "http://h/users/%E5%B1%B1%E7%94%B0")
    }

    func test_interpolatedTraversalAttempt_staysOneSegment() async throws {
        let path: EndpointPath = "orders/\("../admin?x=1")"
        XCTAssertEqual(path.encoded, "orders/..%2Fadmin%3Fx=1")
        let url = try await sentURL(path)
        XCTAssertEqual(url, "http://h/orders/..%2Fadmin%3Fx=1")
    }

    /// `;` is escaped: some servers end a segment at it, so `..;` would climb.
    func test_interpolatedSubDelimiters_stayLiteral_exceptTheSemicolon() async throws {
        let path: EndpointPath = "tags/\("a+b&c=d;e:f@g")"
        XCTAssertEqual(path.encoded, "tags/a+b&c=d%3Be:f@g")
        let url = try await sentURL(path)
        XCTAssertEqual(url, "http://h/tags/a+b&c=d%3Be:f@g")
    }

    func test_interpolatedInteger_isItsDecimalText() async throws {
        let facilityID = 42
        let path: EndpointPath = "facilities/\(facilityID)/reviews"
        XCTAssertEqual(path.encoded, "facilities/42/reviews")
        let url = try await sentURL(path)
        XCTAssertEqual(url, "http://h/facilities/42/reviews")
    }

    // MARK: Literal text

    func test_literalParts_areTakenAsWritten() async throws {
        let path: EndpointPath = "a%2Fb/c;v=1/\("x/y")"
        XCTAssertEqual(path.encoded, "a%2Fb/c;v=1/x%2Fy")
        let url = try await sentURL(path)
        XCTAssertEqual(url, "http://h/a%2Fb/c;v=1/x%2Fy")
    }

    func test_plainLiteral_isUnchanged() {
        let path: EndpointPath = "orders/1/items"
        XCTAssertEqual(path.encoded, "orders/1/items")
    }

    // MARK: Leading slashes

    func test_leadingSlash_isTrimmed() async throws {
        let path: EndpointPath = "/orders/1"
        XCTAssertEqual(path.encoded, "orders/1")
        let url = try await sentURL(path, baseURL: "http://h/api/")
        XCTAssertEqual(url, "http://h/api/orders/1")
    }

    func test_severalLeadingSlashesBeforeInterpolation_areTrimmed() async throws {
        let path: EndpointPath = "///orders/\(1)"
        XCTAssertEqual(path.encoded, "orders/1")
        let url = try await sentURL(path, baseURL: "http://h/api/")
        XCTAssertEqual(url, "http://h/api/orders/1")
    }

    func test_interpolatedValueStartingWithSlash_isEncodedNotTrimmed() {
        let path: EndpointPath = "\("/etc")"
        XCTAssertEqual(path.encoded, "%2Fetc")
    }

    // MARK: Segments

    func test_segmentsInit_encodesEachSegment() async throws {
        let path = EndpointPath(segments: ["orders", "a/b", "..;", "山田", "x y"])
        XCTAssertEqual(path.encoded, "orders/a%2Fb/..%3B/%E5%B1%B1%E7%94%B0/x%20y")
        let url = try await sentURL(path)
        XCTAssertEqual(url, "http://h/orders/a%2Fb/..%3B/%E5%B1%B1%E7%94%B0/x%20y")
    }

    func test_segmentsInit_emptyList_isEmptyPath() {
        XCTAssertEqual(EndpointPath(segments: []).encoded, "")
    }

    func test_description_isTheEncodedPath() {
        let path: EndpointPath = "users/\("山 田")"
        XCTAssertEqual(path.description, "users/%E5%B1%B1%20%E7%94%B0")
    }

    func test_equalEncodings_areEqualPaths() {
        XCTAssertEqual(EndpointPath(segments: ["a/b"]), "a%2Fb")
    }
}
