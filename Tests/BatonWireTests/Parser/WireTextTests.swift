@testable import BatonWire
import XCTest

/// The comparison of field names and tokens, which every head's fields go through.
final class WireTextTests: XCTestCase {
    func test_equalIgnoringCase_foldsASCIILettersOnly() {
        XCTAssertTrue(WireText.equalIgnoringCase("Content-Length", "content-LENGTH"))
        XCTAssertTrue(WireText.equalIgnoringCase("", ""))
        XCTAssertFalse(WireText.equalIgnoringCase("@", "`"), "0x40 and 0x60 differ by the case bit but are no letters")
        XCTAssertFalse(WireText.equalIgnoringCase("[", "{"))
        XCTAssertFalse(WireText.equalIgnoringCase("É", "é"), "non-ASCII bytes must match exactly")
        XCTAssertTrue(WireText.equalIgnoringCase("café", "CAFé"))
    }

    func test_equalIgnoringCase_needsTheWholeOfBoth() {
        XCTAssertFalse(WireText.equalIgnoringCase("Content-Length", "Content"))
        XCTAssertFalse(WireText.equalIgnoringCase("Content", "Content-Length"))
        XCTAssertFalse(WireText.equalIgnoringCase("chunked", ""))
    }

    func test_equalIgnoringCase_comparesSubstringsAndStringsAlike() {
        let list = "gzip, Chunked"
        let second = list.split(separator: ",")[1].dropFirst()
        XCTAssertTrue(WireText.equalIgnoringCase(second, "chunked"))
        XCTAssertTrue(WireText.equalIgnoringCase(second, "CHUNKED"[...]))
        XCTAssertFalse(WireText.equalIgnoringCase(list.dropLast(), "gzip, chunked"))
        // A string not stored as contiguous UTF-8 (bridged, on Apple platforms) takes the slow path alike.
        XCTAssertTrue(WireText.equalIgnoringCase(String(decoding: Array("Keep-Alive".utf16), as: UTF16.self), "keep-alive"))
    }

    func test_listElements_trimsEachElement_andKeepsEmptyOnes() {
        XCTAssertEqual(WireText.listElements(" chunked\t"), ["chunked"])
        XCTAssertEqual(WireText.listElements(""), [""])
        XCTAssertEqual(WireText.listElements("gzip, ,\tchunked "), ["gzip", "", "chunked"])
        XCTAssertEqual(WireText.listElements("12,12"), ["12", "12"])
        XCTAssertEqual(WireText.listElements("keep-alive"), ["keep-alive"])
    }
}
