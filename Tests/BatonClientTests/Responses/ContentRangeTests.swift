@testable import BatonClient
import TestSupport
import XCTest

/// `ContentRange`: the strict reading of a `Content-Range` field in bytes (RFC 9110 §14.4).
final class ContentRangeTests: XCTestCase {

    /// The field's range and complete length, `nil` when refused.
    private func read(_ field: String) -> Parsed? {
        ContentRange(field).map { Parsed(range: $0.range, completeLength: $0.completeLength) }
    }

    private struct Parsed: Equatable {
        var range: ClosedRange<Int64>?
        var completeLength: Int64?
    }

    // MARK: Read

    func test_aRangeWithItsLength() throws {
        let field = try XCTUnwrap(ContentRange("bytes 0-499/1234"))
        XCTAssertEqual(field.range, 0...499)
        XCTAssertEqual(field.completeLength, 1234)
    }

    func test_aRangeOfOneByte_andTheLastByte() {
        XCTAssertEqual(read("bytes 5-5/6"), Parsed(range: 5...5, completeLength: 6))
        XCTAssertEqual(read("bytes 0-0/1"), Parsed(range: 0...0, completeLength: 1))
    }

    func test_aRangeOfUnknownLength() {
        XCTAssertEqual(read("bytes 100-199/*"), Parsed(range: 100...199, completeLength: nil))
    }

    func test_anUnsatisfiedRange_namesTheLength() {
        XCTAssertEqual(read("bytes */1234"), Parsed(range: nil, completeLength: 1234))
        XCTAssertEqual(read("bytes */0"), Parsed(range: nil, completeLength: 0))
    }

    func test_theUnit_isReadWithoutRegardToCase() {
        XCTAssertEqual(ContentRange("Bytes 0-1/2")?.range, 0...1)
        XCTAssertEqual(ContentRange("BYTES */2")?.completeLength, 2)
    }

    func test_eighteenDigits_areRead() {
        let big: Int64 = 999_999_999_999_999_999
        XCTAssertEqual(read("bytes 0-999999999999999998/999999999999999999"), Parsed(range: 0...(big - 1), completeLength: big))
    }

    // MARK: Refused

    func test_anotherUnit_isRefused() {
        XCTAssertNil(ContentRange("items 0-4/10"))
        XCTAssertNil(ContentRange("bytesx 0-4/10"))
        XCTAssertNil(ContentRange("byte 0-4/10"))
    }

    func test_aLastByteBeforeTheFirst_isRefused() {
        XCTAssertNil(ContentRange("bytes 500-499/1234"))
    }

    func test_aLastByteAtOrPastTheLength_isRefused() {
        XCTAssertNil(ContentRange("bytes 0-1234/1234"))
        XCTAssertNil(ContentRange("bytes 0-2000/1234"))
        XCTAssertNil(ContentRange("bytes 0-0/0"))
    }

    func test_nineteenDigits_areRefused() {
        XCTAssertNil(ContentRange("bytes 0-1/1000000000000000000"))
        XCTAssertNil(ContentRange("bytes 1000000000000000000-1000000000000000001/*"))
        XCTAssertNil(ContentRange("bytes */9999999999999999999"))
    }

    func test_spaces_areRefused() {
        for field in ["bytes 0 -499/1234", "bytes 0- 499/1234", "bytes  0-499/1234", "bytes 0-499 /1234", "bytes 0-499/ 1234",
                      "bytes 0-499/1234 ", " bytes 0-499/1234", "bytes\t0-499/1234", "bytes */ 1234"] {
            XCTAssertNil(ContentRange(field), field.debugDescription)
        }
    }

    func test_emptyAndTruncatedFields_areRefused() {
        for field in ["", "bytes", "bytes ", "bytes /", "bytes -/", "bytes 0-/10", "bytes -5/10", "bytes 0-5/", "bytes 0-5", "bytes */*", "bytes */"] {
            XCTAssertNil(ContentRange(field), field.debugDescription)
        }
    }

    func test_signsAndOtherCharacters_areRefused() {
        for field in ["bytes +0-4/10", "bytes 0-+4/10", "bytes 0-4/+10", "bytes 0-4/-10", "bytes 0x0-4/10", "bytes 0-4-5/10",
                      "bytes 0-4/10/10", "bytes ０-4/10", "bytes 0,1-4/10"] {
            XCTAssertNil(ContentRange(field), field.debugDescription)
        }
    }
}
