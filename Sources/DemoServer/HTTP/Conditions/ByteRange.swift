/// The one byte range a `Range` header asks for (RFC 9110 §14.1.2): `bytes=a-b`, `bytes=a-` or
/// `bytes=-n`.
///
/// The server serves one range only: a request for several, for another unit, or one that does
/// not parse gets the whole representation (a server may always ignore `Range`, §14.2), which a
/// client handles as it handles any 200. Numbers of any length are read without overflow: too
/// large a number saturates, which means "past any end" for a first byte and "to the end" for a
/// last byte or a suffix.
enum ByteRange: Sendable, Equatable {
    /// `first-last`, or `first-` to the end when `last` is nil.
    case from(first: Int, last: Int?)
    /// `-length`: the last `length` bytes.
    case suffix(length: Int)

    /// What a range comes to against a representation of a given length.
    enum Resolution: Sendable, Equatable {
        /// Send these bytes, `206 Partial Content`.
        case partial(ClosedRange<Int>)
        /// No byte of the representation is in the range: `416 Range Not Satisfiable`.
        case unsatisfiable
        /// Send the whole representation, `200`: the suffix of an empty one.
        case whole
    }

    /// The range the request's `Range` field asks for; nil when it is absent, repeated, malformed,
    /// of another unit than `bytes`, or asks for more than one range: then `Range` is ignored.
    static func parse(_ values: [String]) -> ByteRange? {
        guard values.count == 1 else { return nil }
        let bytes = Array(values[0].utf8)
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")),
              String(decoding: bytes[..<equals], as: UTF8.self).lowercased() == "bytes"
        else { return nil }
        // A range set is a list: elements between commas, optional whitespace, empty ones allowed.
        let elements = bytes[(equals + 1)...].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            .map(trimmed).filter { !$0.isEmpty }
        guard elements.count == 1 else { return nil }
        return parseSpec(elements[0])
    }

    /// One `int-range` or `suffix-range`; nil when it is neither, or when its last byte comes
    /// before its first (an invalid range, §14.1.1).
    private static func parseSpec(_ spec: ArraySlice<UInt8>) -> ByteRange? {
        guard let dash = spec.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        let before = spec[..<dash]
        let after = spec[(dash + 1)...]
        if before.isEmpty {
            return number(after).map { ByteRange.suffix(length: $0) }
        }
        guard let first = number(before) else { return nil }
        if after.isEmpty { return .from(first: first, last: nil) }
        guard let last = number(after), last >= first else { return nil }
        return .from(first: first, last: last)
    }

    /// One or more ASCII digits, saturating at `Int.max`; nil for anything else (a sign, a space,
    /// nothing at all).
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty else { return nil }
        var value = 0
        for byte in digits {
            guard let digit = byte.decimalDigitValue else { return nil }
            let (times10, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = times10.addingReportingOverflow(digit)
            value = overflowed || overflowedAgain ? Int.max : sum
        }
        return value
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let first = bytes.first, first == .space || first == .tab { bytes.removeFirst() }
        while let last = bytes.last, last == .space || last == .tab { bytes.removeLast() }
        return bytes
    }

    /// The bytes this range selects of a representation of `length` bytes (§14.1.1): a first
    /// byte at or past the end selects nothing; a last byte past the end stops at the end; a
    /// suffix longer than the representation is all of it, and a suffix of zero bytes nothing.
    func resolve(length: Int) -> Resolution {
        switch self {
        case .from(let first, let last):
            guard first < length else { return .unsatisfiable }
            return .partial(first...min(last ?? Int.max, length - 1))
        case .suffix(let count):
            guard count > 0 else { return .unsatisfiable }
            // 206 cannot describe zero bytes (`bytes 0--1/0`): the empty whole it is.
            guard length > 0 else { return .whole }
            return .partial(max(0, length - count)...(length - 1))
        }
    }
}
