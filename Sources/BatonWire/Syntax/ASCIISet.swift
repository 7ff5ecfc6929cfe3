/// A set of ASCII bytes, for the checks and percent-encodings that run on every call: which
/// bytes a token, a path or a query value may hold as they are.
///
/// Byte by byte rather than through Foundation's `CharacterSet` and `addingPercentEncoding`,
/// which on Linux cost microseconds per call, and endpoints are usually built per call.
package struct ASCIISet: Sendable {
    /// Bytes 0 to 63, one bit each.
    private var low: UInt64 = 0
    /// Bytes 64 to 127, one bit each.
    private var high: UInt64 = 0

    /// The set of `characters`, which must be ASCII.
    package init(_ characters: String) {
        for byte in characters.utf8 {
            precondition(byte < 128, "ASCIISet holds ASCII only")
            if byte < 64 { low |= 1 << UInt64(byte) } else { high |= 1 << UInt64(byte - 64) }
        }
    }

    package static let alphanumerics = ASCIISet("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    package static let hexDigits = ASCIISet("0123456789abcdefABCDEF")

    /// This set with `characters` (ASCII) added.
    package func adding(_ characters: String) -> ASCIISet {
        var set = ASCIISet(characters)
        set.low |= low
        set.high |= high
        return set
    }

    package func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low & (1 << UInt64(byte)) != 0 : byte < 128 && high & (1 << UInt64(byte - 64)) != 0
    }

    /// Whether every byte of `text` is in the set.
    package func containsAll(of text: some StringProtocol) -> Bool {
        // A native string's bytes are contiguous, and a loop over a buffer costs a fraction of
        // one over string indices.
        if let result = text.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(contains) }) { return result }
        return text.utf8.allSatisfy(contains)
    }

    /// `text` with every UTF-8 byte outside the set written `%XX` (RFC 3986 §2.1, upper-case
    /// hex), and with spaces written `+` when `spaceAsPlus` (form encoding).
    package func percentEncoded(_ text: String, spaceAsPlus: Bool = false) -> String {
        if containsAll(of: text) { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if contains(byte) {
                bytes.append(byte)
            } else if spaceAsPlus && byte == UInt8(ascii: " ") {
                bytes.append(UInt8(ascii: "+"))
            } else {
                Self.appendEscape(of: byte, to: &bytes)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `%XX` for `byte`.
    package static func appendEscape(of byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "%"))
        bytes.append(hexCharacters[Int(byte >> 4)])
        bytes.append(hexCharacters[Int(byte & 0x0F)])
    }

    private static let hexCharacters = Array("0123456789ABCDEF".utf8)
}
