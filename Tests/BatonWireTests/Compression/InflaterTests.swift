@testable import BatonWire
import Foundation
import TestSupport
import XCTest

/// Inflater: bodies from real compressors decode to what was compressed, whole, a byte at a time
/// and in random splits; every kind of fault is reported as its kind; memory and output stay
/// bounded (chunks of at most 64 KiB, never more than the limit in all).
final class InflaterTests: XCTestCase {
    private typealias Fixtures = InflaterFixtures

    // MARK: - Round trips

    func test_gzipFromTheCommandLine_decodes() throws {
        try assertDecodes(Fixtures.gzipCommandLine, .gzip, to: Fixtures.orderLog(lines: 300))
    }

    func test_gzipWithExtraFieldNameCommentAndHeaderCRC_decodes() throws {
        try assertDecodes(Fixtures.gzipAllFlags, .gzip, to: Fixtures.orderLog(lines: 50))
    }

    func test_pythonGzip_decodes() throws {
        try assertDecodes(Fixtures.pythonGzip, .gzip, to: Fixtures.orderLog(lines: 200))
    }

    func test_gzipOfNothing_decodesToNothing() throws {
        try assertDecodes(Fixtures.emptyGzip, .gzip, to: [])
    }

    func test_demoServerEncoderOutput_decodes() throws {
        try assertDecodes(Fixtures.demoServer, .gzip, to: Fixtures.demoServerContent)
    }

    func test_concatenatedGzipMembers_decodeOneAfterTheOther() throws {
        try assertDecodes(Fixtures.concatenated, .gzip, to: Array("first member\n".utf8) + Fixtures.orderLog(lines: 20))
    }

    func test_zlib_decodesAsDeflate() throws {
        try assertDecodes(Fixtures.zlibDynamic, .deflate, to: Fixtures.orderLog(lines: 400))
    }

    func test_rawDeflateWithFixedCodes_decodesAsDeflate() throws {
        try assertDecodes(Fixtures.rawFixed, .deflate, to: Fixtures.orderLog(lines: 100))
    }

    func test_rawDeflateStoredBlocks_decode() throws {
        try assertDecodes(Fixtures.rawStored, .deflate, to: Fixtures.orderLog(lines: 12))
    }

    func test_rawDeflateOfManyBlocks_decodes() throws {
        try assertDecodes(Fixtures.rawManyBlocks, .deflate, to: Fixtures.orderLog(lines: 400))
    }

    func test_isFinished_onlyOnceTheTrailerIsVerified() throws {
        let body = Fixtures.pythonGzip
        var inflater = Inflater(format: .gzip, limit: 1 << 20)
        try feed(&inflater, body.dropLast())
        XCTAssertFalse(inflater.isFinished)
        XCTAssertThrowsError(try inflater.finish()) { XCTAssertEqual(($0 as? InflateError)?.kind, .truncated) }
        try feed(&inflater, body.suffix(1))
        XCTAssertTrue(inflater.isFinished)
        XCTAssertNoThrow(try inflater.finish())
    }

    func test_emptyInput_changesNothing() throws {
        var inflater = Inflater(format: .deflate, limit: 1 << 20)
        var output: [UInt8] = []
        for byte in Fixtures.zlibDynamic {
            try feed(&inflater, [], into: &output)
            try feed(&inflater, [byte], into: &output)
        }
        try inflater.finish()
        XCTAssertEqual(output, Fixtures.orderLog(lines: 400))
    }

    // MARK: - Bounds

    func test_bomb_throwsTooLargeHavingPassedOnAtMostTheLimit() {
        let bomb = Self.gzipOfZeros(count: 10 << 20)
        XCTAssertLessThan(bomb.count, 70_000)
        for pieceSize in [bomb.count, 4096, 1] {
            var inflater = Inflater(format: .gzip, limit: 1 << 20)
            var produced = 0
            XCTAssertThrowsError(try feed(&inflater, bomb, pieceSize: pieceSize) { produced += $0.count }) { error in
                XCTAssertEqual(error as? InflateError, .tooLarge(limit: 1 << 20))
            }
            XCTAssertLessThanOrEqual(produced, 1 << 20, "pieces of \(pieceSize)")
            XCTAssertGreaterThan(produced, (1 << 20) - (64 << 10), "pieces of \(pieceSize)")
        }
    }

    func test_limit_passesABodyOfExactlyTheLimitAndRefusesOneMore() throws {
        let content = Fixtures.orderLog(lines: 400)
        XCTAssertEqual(try inflate(Fixtures.zlibDynamic, .deflate, limit: content.count), content)
        XCTAssertThrowsError(try inflate(Fixtures.zlibDynamic, .deflate, limit: content.count - 1)) {
            XCTAssertEqual(($0 as? InflateError)?.kind, .tooLarge)
        }
        XCTAssertEqual(try inflate(Fixtures.emptyGzip, .gzip, limit: 0), [])
    }

    func test_chunks_areAtMost64KiBAndNeverEmpty() throws {
        let body = Self.gzipOfZeros(count: 300_000)
        var inflater = Inflater(format: .gzip, limit: 1 << 20)
        var sizes: [Int] = []
        try feed(&inflater, body) { sizes.append($0.count) }
        try inflater.finish()
        XCTAssertEqual(sizes.reduce(0, +), 300_000)
        XCTAssertEqual(sizes.max(), 64 << 10)
        XCTAssertFalse(sizes.contains(0))
    }

    func test_outputError_propagatesAndSpendsTheInflater() throws {
        struct Refusal: Error {}
        var inflater = Inflater(format: .gzip, limit: 1 << 20)
        XCTAssertThrowsError(try feed(&inflater, Fixtures.pythonGzip) { _ in throw Refusal() }) { XCTAssertTrue($0 is Refusal) }
        XCTAssertThrowsError(try feed(&inflater, Fixtures.pythonGzip)) { XCTAssertTrue($0 is InflateError) }
        XCTAssertThrowsError(try inflater.finish())
    }

    // MARK: - Faults, by kind

    func test_badGzipHeaders_areInvalidHeader() {
        var wrongMagic = Fixtures.pythonGzip
        wrongMagic[1] = 0x8c
        var wrongMethod = Fixtures.pythonGzip
        wrongMethod[2] = 7
        var reservedFlag = Fixtures.pythonGzip
        reservedFlag[3] |= 0x20
        for body in [wrongMagic, wrongMethod, reservedFlag, Fixtures.zlibDynamic] {
            assertFails(body, .gzip, with: .invalidHeader)
        }
    }

    func test_zlibHeaderAskingForADictionary_isInvalidHeader() {
        // CMF 0x78, FLG with FDICT: 0x78BB is a multiple of 31.
        assertFails([0x78, 0xbb, 0, 0, 0, 0, 0x03, 0x00], .deflate, with: .invalidHeader)
    }

    func test_reservedBlockType_isInvalidBlockType() {
        assertFails([0x07, 0x00], .deflate, with: .invalidBlockType)
    }

    func test_storedLengthWithoutItsComplement_isInvalidStoredLength() {
        assertFails([0x01, 0x05, 0x00, 0x00, 0x00, 1, 2, 3, 4, 5], .deflate, with: .invalidStoredLength)
    }

    func test_undefinedSymbolsAndBadCodes_areInvalidHuffmanCode() {
        let lengthSymbol286: [UInt8] = [0x1b, 0x03, 0x00]  // fixed block: length symbol 286
        let distanceSymbol30: [UInt8] = [0x4b, 0x04, 0x3e, 0x00]  // fixed block: "a", then distance symbol 30
        let oversubscribed: [UInt8] = [0x05, 0x00, 0x92, 0x04]  // dynamic block: four code length codes of 1 bit
        for body in [lengthSymbol286, distanceSymbol30, oversubscribed] {
            assertFails(body, .deflate, with: .invalidHuffmanCode)
        }
    }

    func test_matchBeforeTheStart_isInvalidDistance() {
        assertFails([0x4b, 0x04, 0x42, 0x00], .deflate, with: .invalidDistance)  // "a", then 3 bytes from 2 back
    }

    func test_wrongChecksums_areChecksumMismatch() {
        var gzipCRC = Fixtures.pythonGzip
        gzipCRC[gzipCRC.count - 8] ^= 1
        var adler = Fixtures.zlibDynamic
        adler[adler.count - 1] ^= 1
        var headerCRC = Fixtures.gzipAllFlags
        headerCRC[59] ^= 1  // the header's CRC-16, its last two of 61 bytes
        assertFails(gzipCRC, .gzip, with: .checksumMismatch)
        assertFails(adler, .deflate, with: .checksumMismatch)
        assertFails(headerCRC, .gzip, with: .checksumMismatch)
        XCTAssertEqual(
            Self.error(inflating: gzipCRC, .gzip)?.description, "the gzip body's CRC-32 does not match its contents")
    }

    func test_wrongGzipSize_isLengthMismatch() {
        var body = Fixtures.pythonGzip
        body[body.count - 4] ^= 1
        assertFails(body, .gzip, with: .lengthMismatch)
    }

    func test_everyProperPrefix_isTruncated() {
        for (body, format) in [(Fixtures.gzipAllFlags, Inflater.Format.gzip), (Fixtures.rawFixed, .deflate)] {
            for end in 0..<body.count {
                XCTAssertEqual(Self.error(inflating: Array(body[..<end]), format)?.kind, .truncated, "\(end) bytes")
            }
        }
        XCTAssertEqual(Self.error(inflating: Array(Fixtures.concatenated.dropLast()), .gzip)?.kind, .truncated)
    }

    func test_bytesAfterTheEnd_areTrailingData() {
        assertFails(Fixtures.zlibDynamic + [0], .deflate, with: .trailingData)
        assertFails(Fixtures.rawFixed + [0x03, 0x00], .deflate, with: .trailingData)
        assertFails(Fixtures.pythonGzip + Array("x".utf8), .gzip, with: .trailingData)
        assertFails(Fixtures.pythonGzip + [0x1f, 0x00], .gzip, with: .trailingData)
    }

    func test_everyKind_hasASentence() {
        for kind in InflateError.Kind.allCases {
            XCTAssertFalse(InflateError(kind, "x").description.isEmpty)
        }
        XCTAssertEqual(InflateError.tooLarge(limit: 5).description, "the body decompresses to more than 5 bytes")
        XCTAssertEqual(InflateError.truncated.kind, .truncated)
    }

    // MARK: - Helpers

    /// Decodes `body` whole, a byte at a time, and in 20 random splits, checking each time that
    /// it gives `expected`.
    private func assertDecodes(
        _ body: [UInt8], _ format: Inflater.Format, to expected: [UInt8], file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(try inflate(body, format, splits: [body.count]), expected, "whole", file: file, line: line)
        XCTAssertEqual(try inflate(body, format, splits: [1]), expected, "byte by byte", file: file, line: line)
        var generator = SplitMix64(seed: UInt64(body.count))
        for round in 0..<20 {
            let splits = (0..<50).map { _ in 1 + Int(generator.next() % (round % 2 == 0 ? 16 : 600)) }
            XCTAssertEqual(try inflate(body, format, splits: splits), expected, "splits \(splits)", file: file, line: line)
        }
    }

    /// Checks that `body` fails with `kind`, whole, a byte at a time and in random splits.
    private func assertFails(
        _ body: [UInt8], _ format: Inflater.Format, with kind: InflateError.Kind, file: StaticString = #filePath, line: UInt = #line
    ) {
        var generator = SplitMix64(seed: 7)
        for splits in [[body.count], [1], (0..<20).map { _ in 1 + Int(generator.next() % 9) }] {
            XCTAssertEqual(Self.error(inflating: body, format, splits: splits)?.kind, kind, "splits \(splits)", file: file, line: line)
        }
    }

    private static func error(inflating body: [UInt8], _ format: Inflater.Format, splits: [Int] = [Int.max]) -> InflateError? {
        do {
            _ = try inflate(body, format, splits: splits)
            return nil
        } catch {
            return error as? InflateError
        }
    }

    private func inflate(_ body: [UInt8], _ format: Inflater.Format, limit: Int = 1 << 24, splits: [Int] = [Int.max]) throws -> [UInt8] {
        try Self.inflate(body, format, limit: limit, splits: splits)
    }

    /// Feeds `body` in pieces of the sizes in `splits` (round and round), then finishes.
    private static func inflate(_ body: [UInt8], _ format: Inflater.Format, limit: Int = 1 << 24, splits: [Int]) throws -> [UInt8] {
        var inflater = Inflater(format: format, limit: limit)
        var output: [UInt8] = []
        var start = 0
        var index = 0
        while start < body.count {
            let end = min(body.count, start + max(1, splits[index % splits.count]))
            try feed(&inflater, body[start..<end], into: &output)
            start = end
            index += 1
        }
        try inflater.finish()
        return output
    }

    private static func feed(_ inflater: inout Inflater, _ bytes: ArraySlice<UInt8>, into output: inout [UInt8]) throws {
        try bytes.withUnsafeBytes { input in
            try inflater.feed(input) { chunk in
                XCTAssert(!chunk.isEmpty && chunk.count <= 64 << 10, "a chunk of \(chunk.count) bytes")
                output += chunk
            }
        }
    }

    private func feed(_ inflater: inout Inflater, _ bytes: [UInt8], into output: inout [UInt8]) throws {
        try Self.feed(&inflater, bytes[...], into: &output)
    }

    private func feed(_ inflater: inout Inflater, _ bytes: some Collection<UInt8>) throws {
        var ignored: [UInt8] = []
        try Self.feed(&inflater, ArraySlice(bytes), into: &ignored)
    }

    /// Feeds `bytes` in pieces of `pieceSize`, handing each chunk to `output`.
    private func feed(
        _ inflater: inout Inflater, _ bytes: [UInt8], pieceSize: Int = Int.max, output: (UnsafeRawBufferPointer) throws -> Void
    ) throws {
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + pieceSize)
            try bytes[start..<end].withUnsafeBytes { try inflater.feed($0, output: output) }
            start = end
        }
    }

    /// A gzip body of `count` zeros, as DemoServer's encoder would write it: one fixed-code
    /// block, a literal zero then matches of 258 bytes at distance 1. Its CRC is computed here
    /// bit by bit, independently of the inflater's, up to 1 MiB (a bomb's trailer is never
    /// reached, and is left zero).
    static func gzipOfZeros(count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.write(1, count: 1)
        bits.write(1, count: 2)
        bits.writeCode(0x30, length: 8)  // literal 0
        var left = count - 1
        while left >= 258 {
            bits.writeCode(0b1100_0101, length: 8)  // length symbol 285: 258 bytes
            bits.writeCode(0, length: 5)  // distance symbol 0: 1 back
            left -= 258
        }
        for _ in 0..<left { bits.writeCode(0x30, length: 8) }
        bits.writeCode(0, length: 7)  // end of block
        bits.write(0, count: (8 - bits.count % 8) % 8)
        var crc: UInt32 = 0xffff_ffff
        for _ in 0..<(count <= 1 << 20 ? count * 8 : 0) { crc = crc & 1 == 1 ? 0xedb8_8320 ^ (crc >> 1) : crc >> 1 }
        let trailer = [count <= 1 << 20 ? ~crc : 0, UInt32(truncatingIfNeeded: count)].flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        return [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff] + bits.bytes + trailer
    }

    private struct BitWriter {
        var bytes: [UInt8] = []
        var count = 0

        mutating func write(_ value: UInt32, count bitCount: Int) {
            for bit in 0..<bitCount {
                if count % 8 == 0 { bytes.append(0) }
                bytes[bytes.count - 1] |= UInt8((value >> bit) & 1) << (count % 8)
                count += 1
            }
        }

        /// A Huffman code, most significant bit first.
        mutating func writeCode(_ code: UInt32, length: Int) {
            for bit in (0..<length).reversed() { write(code >> bit & 1, count: 1) }
        }
    }
}
