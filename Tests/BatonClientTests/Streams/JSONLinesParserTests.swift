@testable import BatonClient
import Foundation
import TestSupport
import XCTest

/// JSONLinesParser splits a JSON lines body into numbered lines: LF or CRLF ends them, blank
/// lines are counted but not emitted, a last line without LF comes at the end, and a line over
/// the limit is refused as soon as it passes it; every body fed whole, a byte at a time, cut in
/// two at every place and in seeded random chunks, with the same lines every way.
final class JSONLinesParserTests: XCTestCase {
    func test_lines_areEmittedWithTheirNumbers() {
        assertJSONLines("{\"a\":1}\n{\"a\":2}\n", gives: [("{\"a\":1}", 1), ("{\"a\":2}", 2)])
    }

    func test_blankAndWhitespaceLines_areSkippedButCounted() {
        assertJSONLines("\n  \n{\"a\":1}\n\t \r\n\u{0C}\n{\"b\":2}\n\n", gives: [("{\"a\":1}", 3), ("{\"b\":2}", 6)])
    }

    func test_crlf_endsLinesWithoutItsCR() {
        assertJSONLines("{}\r\n[1, 2]\r\n", gives: [("{}", 1), ("[1, 2]", 2)])
    }

    func test_aCRBeforeAnLFInTheNextChunk_isDroppedToo() throws {
        XCTAssertEqual(try feedJSONLines(chunks: ["{}\r", "\n[]\r", "\n"]), [JSONLine("{}", 1), JSONLine("[]", 2)])
    }

    func test_aCRNotBeforeAnLF_isPartOfTheLine() {
        assertJSONLines("a\rb\nc\r\r\n", gives: [("a\rb", 1), ("c\r", 2)])
    }

    func test_aLastLineWithoutLF_isEmittedAtTheEnd() {
        assertJSONLines("{}\n[1]", gives: [("{}", 1), ("[1]", 2)])
    }

    func test_aLastLineEndingInCR_keepsItsCR() {
        assertJSONLines("[1]\r", gives: [("[1]\r", 1)])
    }

    func test_aBodyEndingInLF_hasNoEmptyLastLine_andAnEmptyBodyHasNoLines() {
        assertJSONLines("1\n", gives: [("1", 1)])
        assertJSONLines("", gives: [])
        assertJSONLines("\n\n \r", gives: [])
    }

    func test_lines_areTheirBytes_undecoded() {
        let body: [UInt8] = [0x22, 0xFF, 0xE5, 0xB1, 0xB1, 0x22, 0x0A]
        assertJSONLines(body, gives: [JSONLine(bytes: Array(body.dropLast()), number: 1)])
    }

    func test_aLineOfExactlyTheLimit_passes_evenWithItsCRAndLFInOtherChunks() throws {
        assertJSONLines("0123456789\r\n", limit: 10, gives: [("0123456789", 1)])
        XCTAssertEqual(try feedJSONLines(chunks: ["0123456789", "\r", "\n"], limit: 10), [JSONLine("0123456789", 1)])
    }

    func test_aLineOneByteOverTheLimit_throws() {
        assertJSONLines("[1]\n01234567890\n[2]\n", limit: 10, gives: [("[1]", 1)], error: StreamElementTooLarge(limit: 10))
        assertJSONLines("0123456789\r\r\n", limit: 10, gives: [], error: StreamElementTooLarge(limit: 10))
    }

    func test_aBlankLineOverTheLimit_throwsToo() {
        assertJSONLines(String(repeating: " ", count: 11) + "\n", limit: 10, gives: [], error: StreamElementTooLarge(limit: 10))
    }

    func test_aLastLineOverTheLimitByItsCR_throwsAtTheEnd() {
        assertJSONLines("0123456789\r", limit: 10, gives: [], error: StreamElementTooLarge(limit: 10))
    }

    func test_aLineOverTheLimit_isRefusedBeforeItsEndArrives() {
        var parser = JSONLinesParser(maximumLineSize: 64)
        let chunk = Array("{\"k\":\"".utf8) + Array(repeating: UInt8(ascii: "v"), count: 10)
        var fed = 0
        XCTAssertThrowsError(try {
            while fed < 1_000 {
                try chunk.withUnsafeBytes { try parser.feed($0) { _, _ in XCTFail("a line") } }
                fed += 1
            }
        }()) { XCTAssertEqual($0 as? StreamElementTooLarge, StreamElementTooLarge(limit: 64)) }
        XCTAssertEqual(fed, 4, "the fifth chunk passes 64 bytes")
        XCTAssertLessThanOrEqual(parser.heldBytes, 64)
    }

    func test_aRefusingParser_throwsTheSameErrorFromThenOn() {
        var parser = JSONLinesParser(maximumLineSize: 2)
        let refusal = StreamElementTooLarge(limit: 2)
        XCTAssertThrowsError(try Array("[10]\n".utf8).withUnsafeBytes { try parser.feed($0) { _, _ in } }) {
            XCTAssertEqual($0 as? StreamElementTooLarge, refusal)
        }
        XCTAssertThrowsError(try Array("1\n".utf8).withUnsafeBytes { try parser.feed($0) { _, _ in XCTFail("a line") } }) {
            XCTAssertEqual($0 as? StreamElementTooLarge, refusal)
        }
        XCTAssertThrowsError(try parser.finish { _, _ in }) { XCTAssertEqual($0 as? StreamElementTooLarge, refusal) }
    }

    func test_aMixedBody_givesTheSameLinesWholeByteByByteAndInTwentyRandomSplits() throws {
        let body = Array("{\"n\":1}\r\n\r\n  \n{\"n\":\"山田\"}\n\r\r\n[true]\r\nnull".utf8)
        let whole = try feedJSONLines(bytes: [body], limit: 64)
        XCTAssertEqual(whole, [JSONLine("{\"n\":1}", 1), JSONLine("{\"n\":\"山田\"}", 4), JSONLine("[true]", 6), JSONLine("null", 7)])
        for seed in UInt64(1)...20 {
            let chunks = StreamSplit.random(seed: seed).chunks(count: body.count).map { Array(body[$0]) }
            XCTAssertEqual(try feedJSONLines(bytes: chunks, limit: 64), whole, "seed \(seed)")
        }
    }

    func test_aHundredThousandLinesThroughASmallLimit_areAllRead_inBoundedMemory() throws {
        var body: [UInt8] = []
        for number in 1...100_000 { body += Array("{\"n\":\(number)}\r\n".utf8) }
        var parser = JSONLinesParser(maximumLineSize: 32)
        var count = 0
        for start in stride(from: 0, to: body.count, by: 4093) {
            try body[start..<min(body.count, start + 4093)].withUnsafeBytes { bytes in
                try parser.feed(bytes) { line, number in
                    count += 1
                    XCTAssertEqual(number, count)
                    XCTAssertEqual(String(decoding: line, as: UTF8.self), "{\"n\":\(count)}")
                }
            }
            XCTAssertLessThanOrEqual(parser.heldBytes, 32)
        }
        try parser.finish { _, _ in XCTFail("a line at the end") }
        XCTAssertEqual(count, 100_000)
    }
}

// MARK: - Helpers

/// One emitted line: its bytes and its number.
struct JSONLine: Equatable, CustomStringConvertible {
    var bytes: [UInt8]
    var number: Int

    init(bytes: [UInt8], number: Int) {
        self.bytes = bytes
        self.number = number
    }

    init(_ text: String, _ number: Int) { self.init(bytes: Array(text.utf8), number: number) }

    var description: String { "\(number): \(String(decoding: bytes, as: UTF8.self).debugDescription)" }
}

/// What one parse of a body gave: its lines, and the error if one was thrown.
struct ParsedJSONLines: Equatable {
    var lines: [JSONLine] = []
    var error: StreamElementTooLarge?
}

/// Feeds `bytes` to a parser in the chunks `split` makes, then finishes it.
func parseJSONLines(_ bytes: [UInt8], limit: Int, split: StreamSplit) -> ParsedJSONLines {
    var parser = JSONLinesParser(maximumLineSize: limit)
    var parsed = ParsedJSONLines()
    let record = { (line: Data, number: Int) in parsed.lines.append(JSONLine(bytes: Array(line), number: number)) }
    do {
        for range in split.chunks(count: bytes.count) {
            try bytes[range].withUnsafeBytes { try parser.feed($0, record) }
            XCTAssertLessThanOrEqual(parser.heldBytes, limit, "held past the limit, fed \(split)")
        }
        try parser.finish(record)
    } catch let error as StreamElementTooLarge {
        parsed.error = error
    } catch {
        XCTFail("not StreamElementTooLarge: \(error)")
    }
    return parsed
}

/// The lines of `chunks` fed one after the other, then the end of the body.
func feedJSONLines(chunks: [String], limit: Int = 1024) throws -> [JSONLine] {
    try feedJSONLines(bytes: chunks.map { Array($0.utf8) }, limit: limit)
}

/// The lines of byte `chunks` fed one after the other, then the end of the body.
func feedJSONLines(bytes chunks: [[UInt8]], limit: Int) throws -> [JSONLine] {
    var parser = JSONLinesParser(maximumLineSize: limit)
    var lines: [JSONLine] = []
    let record = { (line: Data, number: Int) in lines.append(JSONLine(bytes: Array(line), number: number)) }
    for chunk in chunks { try chunk.withUnsafeBytes { try parser.feed($0, record) } }
    try parser.finish(record)
    return lines
}

extension XCTestCase {
    /// Asserts that `text`, fed every way, gives `lines` (text and number) and ends with `error`.
    func assertJSONLines(_ text: String, limit: Int = 1024, gives lines: [(String, Int)],
                         error: StreamElementTooLarge? = nil, file: StaticString = #filePath, line: UInt = #line) {
        assertJSONLines(Array(text.utf8), limit: limit, gives: lines.map { JSONLine($0.0, $0.1) }, error: error,
                        file: file, line: line)
    }

    /// Asserts that `bytes`, fed every way, give `lines` and end with `error`.
    func assertJSONLines(_ bytes: [UInt8], limit: Int = 1024, gives lines: [JSONLine],
                         error: StreamElementTooLarge? = nil, file: StaticString = #filePath, line: UInt = #line) {
        let expected = ParsedJSONLines(lines: lines, error: error)
        for split in StreamSplit.all(count: bytes.count) {
            let parsed = parseJSONLines(bytes, limit: limit, split: split)
            guard parsed == expected else {
                XCTFail("fed \(split):\n  got      \(parsed)\n  expected \(expected)", file: file, line: line)
                return
            }
        }
    }
}
