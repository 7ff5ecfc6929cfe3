/// A `Content-Range` field of a `206` or `416` response (RFC 9110 §14.4), in bytes: the first and
/// last byte sent and the representation's complete length, when known.
///
/// Parsed strictly: a field in another unit, with a last byte before its first, or a complete
/// length the range does not fit in, is `nil`, and its response is not trusted.
import BatonWire
struct ContentRange: Equatable, Sendable {
    /// The first and last byte sent, both included; `nil` for an unsatisfied range (`bytes */N`).
    var range: ClosedRange<Int64>?
    /// The representation's length, `nil` when the server wrote `*`.
    var completeLength: Int64?

    init?(_ field: String) {
        let bytes = Array(field.utf8)
        guard bytes.count > 6, WireText.equalIgnoringCase(String(decoding: bytes[0..<5], as: UTF8.self), "bytes"),
              bytes[5] == UInt8(ascii: " "),
              let slash = bytes.lastIndex(of: UInt8(ascii: "/"))
        else { return nil }
        let rangePart = bytes[6..<slash]
        let lengthPart = bytes[(slash + 1)...]
        if lengthPart.elementsEqual([UInt8(ascii: "*")]) {
            completeLength = nil
        } else {
            guard let length = Self.number(lengthPart) else { return nil }
            completeLength = length
        }
        if rangePart.elementsEqual([UInt8(ascii: "*")]) {
            // An unsatisfied range names the complete length, always.
            guard completeLength != nil else { return nil }
            range = nil
            return
        }
        guard let dash = rangePart.firstIndex(of: UInt8(ascii: "-")),
              let first = Self.number(rangePart[..<dash]), let last = Self.number(rangePart[(dash + 1)...]),
              first <= last
        else { return nil }
        if let completeLength, last >= completeLength { return nil }
        range = first...last
    }

    /// Decimal digits only, at most 18 of them (no `Int64` overflow).
    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
    }
}
