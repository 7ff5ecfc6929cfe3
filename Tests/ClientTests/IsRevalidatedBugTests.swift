@testable import Baton
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// A Sources bug (not committed, minor): `Answer.isRevalidated` is true for any 304, also one
/// no stored value was revalidated by.
final class IsRevalidatedBugTests: XCTestCase {
    func test_a304ThatTheEndpointAcceptsItself_isNotARevalidation() async throws {
        let transport = constantStub(HTTPResponse(statusCode: 304))
        let client = try makeClient(transport: transport)   // no store, revalidatesStoredValues off
        var conditional = Request<HTTPResponse>(.get, "notes/n1", headers: ["If-None-Match": "\"mine\""])
        conditional.acceptableStatusCodes = 200..<400
        let answer = try await client.answer(for: conditional).value
        XCTAssertEqual(answer.value.statusCode, 304)
        XCTAssertFalse(answer.isRevalidated, "no stored value was revalidated: the client has no store")
    }
}
