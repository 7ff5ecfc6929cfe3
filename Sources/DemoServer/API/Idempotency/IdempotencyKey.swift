/// The `Idempotency-Key` request field (IETF httpapi draft): a key the client makes up for one
/// operation and sends again with every retry of it, so the server can answer a retry with the
/// response it already gave instead of doing the work twice.
///
/// Its value is a structured-field string (RFC 8941 §3.3.3), `"…"` with `\"` and `\\` escapes; a
/// bare token is taken too, since clients commonly send UUIDs unquoted. Either way the key is the
/// characters inside: 1 to 255 visible ASCII characters. Anything else (parameters, several field
/// lines, spaces, control or non-ASCII bytes) is malformed, and the request is refused with 400.
enum IdempotencyKey {
    static let maxLength = 255
    static let headerName = "Idempotency-Key"
    /// The 400 message, which says what a valid key is.
    static let malformedMessage = "Idempotency-Key must be a quoted string or a token of 1 to 255 visible ASCII characters"

    /// What a request's `Idempotency-Key` field lines say.
    enum Field: Sendable, Equatable {
        case absent
        case key(String)
        case malformed
    }

    static func parse(_ values: [String]) -> Field {
        guard !values.isEmpty else { return .absent }
        guard values.count == 1 else { return .malformed }
        let bytes = Array(values[0].trimmingOWS().utf8)
        let key: [UInt8]
        if bytes.first == UInt8(ascii: "\"") {
            guard let unquoted = unquote(bytes) else { return .malformed }
            key = unquoted
        } else {
            guard bytes.allSatisfy({ $0.isTokenCharacter || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") }) else {
                return .malformed
            }
            key = bytes
        }
        guard (1...maxLength).contains(key.count), key.allSatisfy({ (0x21...0x7e).contains($0) }) else { return .malformed }
        return .key(String(decoding: key, as: UTF8.self))
    }

    /// The characters of a whole quoted string, escapes undone; nil when `bytes` is not exactly
    /// one (an unknown escape, an unescaped `"` inside, nothing after the closing quote).
    private static func unquote(_ bytes: [UInt8]) -> [UInt8]? {
        var key: [UInt8] = []
        var index = 1
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\\"):
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") || bytes[index + 1] == UInt8(ascii: "\\")
                else { return nil }
                key.append(bytes[index + 1])
                index += 2
            case UInt8(ascii: "\""):
                return index == bytes.count - 1 ? key : nil
            default:
                key.append(byte)
                index += 1
            }
        }
        return nil
    }
}
