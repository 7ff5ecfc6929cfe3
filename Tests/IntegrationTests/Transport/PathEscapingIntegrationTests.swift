@testable import BatonClient
import Foundation
import TestSupport
import XCTest

/// An interpolated path value is one segment: whatever it contains, it cannot address another
/// resource. Each request below would reach order 1 or 2 if the value were pasted in as it is;
/// the server answers 404, and its log shows the escaped target it received.
final class PathEscapingIntegrationTests: IntegrationTestCase {
    /// Sends `GET orders/<value>`, expects `404 not_found`, and the server to log
    /// `"GET /orders/<escaped> HTTP/1.1" 404`.
    private func assertAddressesNoOrder(
        _ value: String, arrivesAs escaped: String, file: StaticString = #filePath, line: UInt = #line
    ) async {
        let logged = serverLog.expectLine(containing: #""GET /orders/\#(escaped) HTTP/1.1" 404"#)

        let error = await apiError(client.send(Request<Order>(.get, "orders/\(value)")), file: file, line: line)

        guard let matched = error, matched.kind == .unacceptableStatus else {
            return XCTFail("expected a 404, got \(error.map { "\($0)" } ?? "nil")", file: file, line: line)
        }
        let request = matched.request
        let response = matched.response!
        let message = matched.serverMessage
        XCTAssertEqual(response.statusCode, 404, file: file, line: line)
        XCTAssertEqual(message, "not_found", file: file, line: line)
        XCTAssertEqual(request.description, "GET \(origin)/orders/\(escaped)", file: file, line: line)
        await fulfillment(of: [logged], timeout: 30)
    }

    func test_plainIDValue_addressesTheOrder() async throws {
        let logged = serverLog.expectLine(containing: #""GET /orders/1 HTTP/1.1" 200"#)

        let order = try await client.send(Request<Order>(.get, "orders/\(1)")).value

        XCTAssertEqual(order, Fixtures.order(1))
        await fulfillment(of: [logged], timeout: 30)
    }

    func test_valueWithSlashesAndDotDot_staysOneSegment() async {
        await assertAddressesNoOrder("1/../2", arrivesAs: "1%2F..%2F2")
    }

    func test_valueDotDotWithSemicolon_staysOneSegment() async {
        await assertAddressesNoOrder("..;", arrivesAs: "..%3B")
    }

    func test_valueWithQuestionMark_doesNotStartAQuery() async {
        await assertAddressesNoOrder("1?x=2", arrivesAs: "1%3Fx=2")
    }

    func test_valueWithHash_doesNotStartAFragment() async {
        await assertAddressesNoOrder("1#frag", arrivesAs: "1%23frag")
    }

    func test_fullWidthDigit_isNotTheASCIIDigit() async {
        await assertAddressesNoOrder("１", arrivesAs: "%EF%BC%91")
    }

    func test_valueWithSpaceAndPercent_isPercentEncoded() async {
        await assertAddressesNoOrder("1 %2", arrivesAs: "1%20%252")
    }
}
