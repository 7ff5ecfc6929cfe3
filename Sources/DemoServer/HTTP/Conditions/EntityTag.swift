/// An entity tag (RFC 9110 §8.8.3): an opaque validator in double quotes, weak when prefixed
/// with `W/`, such as `"3f2a…"` or `W/"v1"`.
///
/// The two comparisons of §8.8.3.2 are the two questions the server asks: `If-None-Match` wants
/// "the same content, perhaps not byte for byte" (weak), `If-Range` wants "these very bytes"
/// (strong, where a weak tag never matches).
struct EntityTag: Sendable, Equatable, CustomStringConvertible {
    /// The characters between the quotes.
    var opaque: String
    var isWeak: Bool

    init(opaque: String, isWeak: Bool = false) {
        self.opaque = opaque
        self.isWeak = isWeak
    }

    /// The tag as a header field carries it: `"opaque"` or `W/"opaque"`.
    var description: String { (isWeak ? "W/" : "") + "\"\(opaque)\"" }

    /// Strong comparison: both tags strong, the same characters.
    func matchesStrongly(_ other: EntityTag) -> Bool {
        !isWeak && !other.isWeak && opaque == other.opaque
    }

    /// Weak comparison: the same characters, whether or not either tag is weak.
    func matchesWeakly(_ other: EntityTag) -> Bool {
        opaque == other.opaque
    }

    /// A field value that is exactly one entity tag (an `If-Range` or `ETag` value); nil otherwise.
    static func parse(_ text: String) -> EntityTag? {
        let bytes = Array(text.utf8)
        var index = 0
        guard let tag = scan(bytes, at: &index), index == bytes.count else { return nil }
        return tag
    }

    /// The entity tag starting at `index`, moving `index` past it; nil (with `index` unspecified)
    /// when none starts there. `etagc` is `%x21 / %x23-7E / obs-text`: any visible byte but `"`,
    /// so a tag may hold commas, and a list must be scanned tag by tag, never split on commas.
    static func scan(_ bytes: [UInt8], at index: inout Int) -> EntityTag? {
        var weak = false
        if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "W"), bytes[index + 1] == UInt8(ascii: "/") {
            weak = true
            index += 2
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        let start = index + 1
        index = start
        while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
            let byte = bytes[index]
            guard byte == 0x21 || (0x23...0x7e).contains(byte) || byte >= 0x80 else { return nil }
            index += 1
        }
        guard index < bytes.count else { return nil }
        let opaque = String(decoding: bytes[start..<index], as: UTF8.self)
        index += 1
        return EntityTag(opaque: opaque, isWeak: weak)
    }
}
