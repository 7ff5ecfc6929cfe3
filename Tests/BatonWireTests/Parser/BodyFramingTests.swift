@testable import BatonWire
import XCTest

/// The rule of which responses have no body, as the parser and HTTP1Transport both ask it.
final class BodyFramingTests: XCTestCase {
    func test_forbidsBody_exactlyForHEAD_1xx_204_304() {
        for status in [100, 103, 199, 204, 304] {
            XCTAssertTrue(BodyFraming.forbidsBody(method: "GET", status: status), "\(status)")
        }
        for status in [200, 201, 203, 205, 206, 300, 301, 303, 305, 404, 500] {
            XCTAssertFalse(BodyFraming.forbidsBody(method: "GET", status: status), "\(status)")
            XCTAssertTrue(BodyFraming.forbidsBody(method: "HEAD", status: status), "HEAD \(status)")
        }
        // Method tokens are case-sensitive (RFC 9110 §9.1): `head` is another method.
        XCTAssertFalse(BodyFraming.forbidsBody(method: "head", status: 200))
        XCTAssertFalse(BodyFraming.forbidsBody(method: "POST", status: 200))
    }
}
