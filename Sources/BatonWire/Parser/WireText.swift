/// Bytes of an HTTP/1.1 head as text: the byte classes of RFC 9110 §5.6, case-insensitive
/// comparison of ASCII names, field values decoded to strings, and bytes quoted for an error's
/// sentence.
package enum WireText {
    package static let space: UInt8 = 0x20
    package static let tab: UInt8 = 0x09
    package static let carriageReturn: UInt8 = 0x0D
    package static let lineFeed: UInt8 = 0x0A

    /// Whether `byte` is a `tchar` (RFC 9110 §5.6.2): the bytes a token, such as a field name,
    /// is made of.
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
             UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// Whether `byte` is optional whitespace (`OWS`: SP or HTAB).
    package static func isWhitespace(_ byte: UInt8) -> Bool { byte == space || byte == tab }

    /// Whether `byte` may stand in a field value or a reason phrase: HTAB, SP, a visible ASCII
    /// character or `obs-text` (0x80 to 0xFF); never NUL, CR, LF, DEL or another control byte.
    package static func isTextByte(_ byte: UInt8) -> Bool { byte == tab || (byte >= space && byte != 0x7F) }

    package static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// The value of a hexadecimal digit, or `nil`.
    package static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// `bytes` without leading and trailing SP and HTAB.
    package static func trimmingWhitespace(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, isWhitespace(first) { slice.removeFirst() }
        while let last = slice.last, isWhitespace(last) { slice.removeLast() }
        return slice
    }

    /// Whether two strings are equal when ASCII letters are compared without case (field names
    /// and tokens are ASCII; other bytes must match exactly).
    package static func equalIgnoringCase(_ left: some StringProtocol, _ right: some StringProtocol) -> Bool {
        equalIgnoringCase(utf8: left.utf8, right.utf8)
    }

    // The same comparison for the concrete types, which is what other modules call: a generic
    // function is not specialized across modules, and every field of every head goes through this.
    package static func equalIgnoringCase(_ left: String, _ right: String) -> Bool { equalIgnoringCase(utf8: left.utf8, right.utf8) }
    package static func equalIgnoringCase(_ left: Substring, _ right: String) -> Bool { equalIgnoringCase(utf8: left.utf8, right.utf8) }
    package static func equalIgnoringCase(_ left: Substring, _ right: Substring) -> Bool { equalIgnoringCase(utf8: left.utf8, right.utf8) }

    /// Compares the bytes in place when both are contiguous (native strings are), at their length
    /// first, which settles most field names at once.
    private static func equalIgnoringCase<Left: Collection<UInt8>, Right: Collection<UInt8>>(utf8 left: Left, _ right: Right) -> Bool {
        guard left.count == right.count else { return false }
        let compared = left.withContiguousStorageIfAvailable { left in
            right.withContiguousStorageIfAvailable { right in
                zip(left, right).allSatisfy { $0 == $1 || lowercased($0) == lowercased($1) }
            }
        }
        if let result = compared ?? nil { return result }
        return left.elementsEqual(right) { lowercased($0) == lowercased($1) }
    }

    package static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    /// The elements of a comma-separated list (RFC 9110 §5.6.1), each without its surrounding
    /// whitespace, empty ones included (the caller decides whether they are allowed).
    package static func listElements(_ value: String) -> [Substring] {
        func trimmed(_ element: Substring) -> Substring {
            var element = element
            while let first = element.first, first == " " || first == "\t" { element.removeFirst() }
            while let last = element.last, last == " " || last == "\t" { element.removeLast() }
            return element
        }
        // Most fields hold one element (`keep-alive`, `chunked`, a length): no split for them.
        guard value.utf8.contains(UInt8(ascii: ",")) else { return [trimmed(value[...])] }
        return value.split(separator: ",", omittingEmptySubsequences: false).map(trimmed)
    }

    /// `bytes` as a string: UTF-8 when they are valid UTF-8 (all ASCII, in practice), else each
    /// byte as the ISO-8859-1 character of that number, as HTTP/1.0 once defined field values.
    /// No byte is lost or replaced either way.
    package static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.allSatisfy({ $0 < 0x80 }) || isValidUTF8(bytes) {
            return String(decoding: bytes, as: UTF8.self)
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return text
    }

    private static func isValidUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// `bytes` in double quotes for an error's sentence: printable ASCII as it is, `"` and `\`
    /// escaped, CR, LF and HTAB as `\r`, `\n` and `\t`, any other byte as `\xNN`, and at most
    /// `limit` bytes shown, with `…` after a cut.
    package static func quoted(_ bytes: some Collection<UInt8>, limit: Int = 60) -> String {
        var text = "\""
        for byte in bytes.prefix(limit) {
            switch byte {
            case UInt8(ascii: "\""): text += "\\\""
            case UInt8(ascii: "\\"): text += "\\\\"
            case carriageReturn: text += "\\r"
            case lineFeed: text += "\\n"
            case tab: text += "\\t"
            case 0x20..<0x7F: text.unicodeScalars.append(Unicode.Scalar(byte))
            default: text += "\\x" + hex(byte)
            }
        }
        if bytes.count > limit { text += "…" }
        return text + "\""
    }

    /// `text`'s UTF-8 bytes quoted as by `quoted(_:limit:)`.
    package static func quoted(_ text: some StringProtocol, limit: Int = 60) -> String { quoted(Array(text.utf8), limit: limit) }

    /// `byte` as two upper-case hexadecimal digits.
    package static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
}
