@testable import BatonWire
@testable import BatonClient
import Foundation
import TestSupport
import XCTest

/// ASCIISet: the byte-level sets and percent-encoding on the per-call path give exactly what
/// Foundation's `CharacterSet` and `addingPercentEncoding` gave for the same characters.
final class ASCIISetTests: XCTestCase {
    /// Deterministic text mixing what the encoders must tell apart: letters, reserved and
    /// unreserved marks, `%`, spaces, control characters, accented and CJK letters, an emoji.
    private func sampleTexts(count: Int) -> [String] {
        let pool: [Character] = Array("aZ09-._~!$&'()*+,;=:@/?#[]% \t\n\u{0}\u{7F}é山田🎌\"<>\\^`{|}")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        return (0..<count).map { _ in String((0..<(next() % 12)).map { _ in pool[next() % pool.count] }) }
    }

    private func foundationEncoded(_ text: String, allowing others: String) -> String? {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: others)
        return text.addingPercentEncoding(withAllowedCharacters: allowed)
    }

    func test_percentEncoded_matchesFoundationForSegmentCharacters() {
        let others = "-._~!$&'()*+,;=:@"
        let set = ASCIISet.alphanumerics.adding(others)
        for text in sampleTexts(count: 2_000) {
            XCTAssertEqual(set.percentEncoded(text), foundationEncoded(text, allowing: others), "\(text.debugDescription)")
        }
    }

    func test_percentEncoded_matchesFoundationForQueryCharacters() {
        let set = ASCIISet.alphanumerics.adding("-._~")
        for text in sampleTexts(count: 2_000) {
            XCTAssertEqual(set.percentEncoded(text), foundationEncoded(text, allowing: "-._~"), "\(text.debugDescription)")
        }
    }

    func test_percentEncoded_writesUTF8BytesInUpperCaseHex() {
        XCTAssertEqual(ASCIISet.alphanumerics.percentEncoded("山田 é"), "%E5%B1%B1%E7%94%B0%20%C3%A9")
    }

    func test_percentEncoded_withSpaceAsPlus_writesSpacesAsPlusAndPlusEncoded() {
        XCTAssertEqual(ASCIISet.alphanumerics.percentEncoded("a b+c", spaceAsPlus: true), "a+b%2Bc")
    }

    func test_percentEncoded_returnsTextWithNothingToEncodeUnchanged() {
        XCTAssertEqual(ASCIISet.alphanumerics.adding("-").percentEncoded("order-12"), "order-12")
        XCTAssertEqual(ASCIISet.alphanumerics.percentEncoded(""), "")
    }

    func test_contains_holdsOnlyTheGivenASCIIBytes() {
        let set = ASCIISet("a/~")
        XCTAssertEqual((0...255).filter { set.contains(UInt8($0)) }, [0x2F, 0x61, 0x7E])
    }

    func test_containsAll_isFalseForAnyByteOutsideTheSet() {
        XCTAssertTrue(ASCIISet.hexDigits.containsAll(of: "09afAF"))
        XCTAssertFalse(ASCIISet.hexDigits.containsAll(of: "0g"))
        XCTAssertFalse(ASCIISet.hexDigits.containsAll(of: "０"))  // a full-width digit is not ASCII
    }

    // MARK: Path literals

    func test_literal_keepsSeparatorsAndValidEscapes() {
        XCTAssertEqual(EndpointPath.encodeLiteral("a/b%2Fc?d#e"), "a/b%2Fc?d#e")
    }

    func test_literal_escapesABarePercentAndAnIncompleteEscape() {
        XCTAssertEqual(EndpointPath.encodeLiteral("100%"), "100%25")
        XCTAssertEqual(EndpointPath.encodeLiteral("%4"), "%254")
        XCTAssertEqual(EndpointPath.encodeLiteral("%zz"), "%25zz")
    }

    func test_literal_escapesSpacesAndEveryByteOfNonASCIIText() {
        XCTAssertEqual(EndpointPath.encodeLiteral("山 田"), "%E5%B1%B1%20%E7%94%B0")
    }
}
