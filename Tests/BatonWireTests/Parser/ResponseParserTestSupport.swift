@testable import BatonWire
import XCTest

// How the response parser's tests feed it: the same bytes whole, one byte at a time, cut in two
// at every place, and in seeded random pieces, each feeding expected to give the same response.

/// What one parse of a server's bytes gave, whatever the pieces they came in.
struct ParsedResponse: Equatable, CustomStringConvertible {
    enum Event: Equatable {
        /// The head: version, status, reason and fields as `name: value`.
        case head(String, Int, String, [String])
        /// Body bytes, consecutive pieces joined.
        case body([UInt8])
        /// The end, trailers as `name: value`.
        case end([String])
    }

    var events: [Event] = []
    /// The bytes the parser used (0 when it failed: how far it got then depends on the pieces).
    var consumed = 0
    var error: WireError?
    var keepsConnection = false
    var declaredLength: Int64?

    var description: String {
        "events \(events), consumed \(consumed), error \(error.map { "\($0.kind): \($0)" } ?? "none"), "
            + "keeps \(keepsConnection), declared \(declaredLength.map(String.init) ?? "nil")"
    }
}

/// How the bytes of a response reach the parser.
enum Feeding: CustomStringConvertible {
    case whole
    case byteByByte
    /// Two pieces, the first of this many bytes.
    case cut(Int)
    /// Pieces of 1 to 9 bytes, drawn from the seed.
    case random(seed: UInt64)

    /// Every feeding worth trying for `count` bytes.
    static func all(count: Int) -> [Feeding] {
        [.whole, .byteByByte] + (1..<max(1, count)).map(Feeding.cut) + (1...8).map { Feeding.random(seed: $0) }
    }

    /// The pieces of `count` bytes.
    func pieces(count: Int) -> [Range<Int>] {
        var sizes: [Int]
        switch self {
        case .whole: sizes = [count]
        case .byteByByte: sizes = Array(repeating: 1, count: count)
        case .cut(let first): sizes = [first, count - first]
        case .random(let seed):
            var state = seed
            sizes = []
            var total = 0
            while total < count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let size = min(Int(state >> 60) % 9 + 1, count - total)
                sizes.append(size)
                total += size
            }
        }
        var ranges: [Range<Int>] = []
        var start = 0
        for size in sizes {
            ranges.append(start..<(start + size))
            start += size
        }
        return ranges
    }

    var description: String {
        switch self {
        case .whole: "whole"
        case .byteByByte: "byte by byte"
        case .cut(let first): "cut after \(first) bytes"
        case .random(let seed): "in random pieces (seed \(seed))"
        }
    }
}

/// Parses `wire` as fed, then, if the response is not complete, ends it as the server's close.
func parseResponse(_ wire: [UInt8], method: String = "GET", limits: ResponseLimits = ResponseLimits(),
                 feeding: Feeding = .whole) -> ParsedResponse {
    var parser = ResponseParser(requestMethod: method, limits: limits)
    var parsed = ParsedResponse()
    func record(_ event: ResponseEvent) {
        switch event {
        case .head(let head):
            parsed.events.append(.head(head.version.description, head.status, head.reason, head.fields.map { "\($0.name): \($0.value)" }))
        case .body(let piece):
            XCTAssertFalse(piece.isEmpty, "an empty body piece")
            if case .body(let before) = parsed.events.last {
                parsed.events[parsed.events.count - 1] = .body(before + Array(piece))
            } else {
                parsed.events.append(.body(Array(piece)))
            }
        case .end(let trailers):
            parsed.events.append(.end(trailers.map { "\($0.name): \($0.value)" }))
        }
    }
    do {
        for range in feeding.pieces(count: wire.count) where !parser.isComplete {
            let used = try wire[range].withUnsafeBytes { try parser.parse($0, record) }
            XCTAssert(used == range.count || parser.isComplete, "\(used) of \(range.count) bytes used before the end")
            parsed.consumed += used
        }
        if !parser.isComplete { try parser.parseEnd(record) }
    } catch let error as WireError {
        parsed.error = error
        parsed.consumed = 0
    } catch {
        XCTFail("not a WireError: \(error)")
    }
    parsed.keepsConnection = parser.keepsConnection
    parsed.declaredLength = parser.declaredLength
    return parsed
}

/// The bytes of `text`, whose lines end as written (`\r\n`, or `\n` for bare LF).
func responseBytes(_ text: String) -> [UInt8] { Array(text.utf8) }

/// The events of a complete response: its head (HTTP/1.1 unless told), its body if not empty, its end.
func responseEvents(_ status: Int, _ reason: String, _ fields: [String], body: String = "", trailers: [String] = [],
                  version: String = "HTTP/1.1") -> [ParsedResponse.Event] {
    [.head(version, status, reason, fields)] + (body.isEmpty ? [] : [.body(responseBytes(body))]) + [.end(trailers)]
}

extension XCTestCase {
    /// Asserts that `bytes`, fed every way, give `expected` (with `consumed` defaulting to all bytes).
    func assertResponse(_ bytes: [UInt8], method: String = "GET", limits: ResponseLimits = ResponseLimits(),
                      events: [ParsedResponse.Event], consumed: Int? = nil, keepsConnection: Bool,
                      declaredLength: Int64? = nil, file: StaticString = #filePath, line: UInt = #line) {
        let expected = ParsedResponse(events: events, consumed: consumed ?? bytes.count, error: nil,
                                    keepsConnection: keepsConnection, declaredLength: declaredLength)
        for feeding in Feeding.all(count: bytes.count) {
            let parsed = parseResponse(bytes, method: method, limits: limits, feeding: feeding)
            guard parsed == expected else {
                XCTFail("fed \(feeding):\n  got      \(parsed)\n  expected \(expected)", file: file, line: line)
                return
            }
        }
    }

    /// Asserts that `bytes`, fed every way, are refused with `kind` and `sentence`.
    func assertRefusal(_ bytes: [UInt8], method: String = "GET", limits: ResponseLimits = ResponseLimits(),
                       _ kind: WireError.Kind, _ sentence: String, file: StaticString = #filePath, line: UInt = #line) {
        for feeding in Feeding.all(count: bytes.count) {
            let parsed = parseResponse(bytes, method: method, limits: limits, feeding: feeding)
            guard parsed.error?.kind == kind, parsed.error?.description == sentence else {
                XCTFail("fed \(feeding): got \(parsed); expected \(kind): \(sentence)", file: file, line: line)
                return
            }
        }
    }
}
