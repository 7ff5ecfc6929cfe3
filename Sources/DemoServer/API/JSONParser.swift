/// A strict RFC 8259 parser for request bodies, bounded in nesting depth so that no body can
/// exhaust a connection thread's stack.
struct JSONParser {
    struct Failure: Error {}

    static let maxDepth = 64

    private let bytes: [UInt8]
    private var index = 0

    /// The value `bytes` holds, or nil when they are not exactly one JSON value (whitespace around
    /// it allowed) or nest deeper than `maxDepth`.
    static func parse(_ bytes: [UInt8]) -> JSONValue? {
        var parser = JSONParser(bytes: bytes)
        do throws(Failure) {
            // A UTF-8 byte order mark is tolerated, as RFC 8259 §8.1 permits.
            if bytes.starts(with: [0xef, 0xbb, 0xbf]) { parser.index = 3 }
            let value = try parser.parseValue(depth: 0)
            parser.skipWhitespace()
            return parser.index == bytes.count ? value : nil
        } catch {
            return nil
        }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0a, 0x0d].contains(bytes[index]) { index += 1 }
    }

    private mutating func expect(_ literal: String) throws(Failure) {
        for byte in literal.utf8 {
            guard index < bytes.count, bytes[index] == byte else { throw Failure() }
            index += 1
        }
    }

    private mutating func parseValue(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maxDepth else { throw Failure() }
        skipWhitespace()
        guard index < bytes.count else { throw Failure() }
        switch bytes[index] {
        case UInt8(ascii: "n"): try expect("null"); return .null
        case UInt8(ascii: "t"): try expect("true"); return .bool(true)
        case UInt8(ascii: "f"): try expect("false"); return .bool(false)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "["):
            index += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            while true {
                items.append(try parseValue(depth: depth + 1))
                skipWhitespace()
                guard index < bytes.count else { throw Failure() }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "]") { return .array(items) }
                guard bytes[index - 1] == UInt8(ascii: ",") else { throw Failure() }
            }
        case UInt8(ascii: "{"):
            index += 1
            var members: [(String, JSONValue)] = []
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            while true {
                skipWhitespace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw Failure() }
                let key = try parseString()
                skipWhitespace()
                try expect(":")
                members.append((key, try parseValue(depth: depth + 1)))
                skipWhitespace()
                guard index < bytes.count else { throw Failure() }
                index += 1
                if bytes[index - 1] == UInt8(ascii: "}") { return .object(members) }
                guard bytes[index - 1] == UInt8(ascii: ",") else { throw Failure() }
            }
        default:
            return try parseNumber()
        }
    }

    private mutating func parseNumber() throws(Failure) -> JSONValue {
        let begin = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        while index < bytes.count, bytes[index].decimalDigitValue != nil { index += 1 }
        let integerDigits = index - integerStart
        guard integerDigits > 0, !(integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0")) else { throw Failure() }
        var isInteger = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let fractionStart = index
            while index < bytes.count, bytes[index].decimalDigitValue != nil { index += 1 }
            guard index > fractionStart else { throw Failure() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let exponentStart = index
            while index < bytes.count, bytes[index].decimalDigitValue != nil { index += 1 }
            guard index > exponentStart else { throw Failure() }
        }
        let text = String(decoding: bytes[begin..<index], as: UTF8.self)
        if isInteger, let value = Int(text) { return .integer(value) }
        guard let value = Double(text) else { throw Failure() }
        return .number(value)
    }

    private mutating func parseString() throws(Failure) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars)
            run.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case 0x00..<0x20:
                throw Failure()
            case UInt8(ascii: "\\"):
                flush()
                guard index < bytes.count else { throw Failure() }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"): scalars.append(try parseUnicodeEscape())
                default: throw Failure()
                }
            default:
                run.append(byte)
            }
        }
        throw Failure()
    }

    /// `\uXXXX`, joining a surrogate pair; a lone surrogate becomes U+FFFD rather than an error.
    private mutating func parseUnicodeEscape() throws(Failure) -> Unicode.Scalar {
        let high = try parseHex4()
        if (0xd800..<0xdc00).contains(high), index + 1 < bytes.count,
           bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
            let saved = index
            index += 2
            let low = try parseHex4()
            if (0xdc00..<0xe000).contains(low) {
                return Unicode.Scalar(0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00)) ?? "\u{FFFD}"
            }
            index = saved
        }
        return Unicode.Scalar(high) ?? "\u{FFFD}"
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw Failure() }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = byte.hexDigitValue else { throw Failure() }
            value = value * 16 + UInt32(digit)
        }
        index += 4
        return value
    }
}
