@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// Literal path text that a URL path cannot hold: escaped, or refused with a clear error.
final class LiteralPathClientTests: XCTestCase {
    func test_literalPathWithQueryMark_isInvalidRequestAndNothingIsSent() async throws {
        let transport = StubTransport { _, _ in .json("{}") }
        let client = try Client(baseURL: URL(string: "https://api.test/")!, transport: transport)
        do {
            _ = try await client.send(Request<Data>(.get, "orders?page=2")).value
            XCTFail("expected APIError.invalidRequest")
        } catch let error as APIError where error.kind == .invalidRequest {
            XCTAssertEqual(error.field, "path")
            XCTAssertEqual(error.reason, "it contains \"?\"; put query items in the endpoint's `query`")
        } catch {
            XCTFail("expected APIError.invalidRequest, got \(error)")
        }
        XCTAssertEqual(transport.requests.count, 0)
    }

    func test_literalPathWithFragmentMark_isInvalidRequest() async throws {
        let client = try Client(baseURL: URL(string: "https://api.test/")!, transport: StubTransport { _, _ in .json("{}") })
        do {
            _ = try await client.send(Request<Data>(.get, "orders#top")).value
            XCTFail("expected APIError.invalidRequest")
        } catch let error as APIError where error.kind == .invalidRequest {
            XCTAssertEqual(error.field, "path")
        } catch {
            XCTFail("expected APIError.invalidRequest, got \(error)")
        }
    }

    func test_literalPathWithSpaceNonASCIIAndBarePercent_isEscapedAndSent() async throws {
        let transport = StubTransport { _, _ in HTTPResponse(statusCode: 200, body: Data("ok".utf8)) }
        let client = try Client(baseURL: URL(string: "https://api.test/")!, transport: transport)
        _ = try await client.send(Request<Data>(.get, "注文 一覧/100%/a%20b/\(1)")).value
        XCTAssertEqual(
            transport.requests.first?.url?.absoluteString,
            "https://api.test/%E6%B3%A8%E6%96%87%20%E4%B8%80%E8%A6%A7/100%25/a%20b/1"
        )
    }
}
