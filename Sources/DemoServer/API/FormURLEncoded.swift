import Foundation

/// `application/x-www-form-urlencoded` pairs, as in a query string or a form body (WHATWG URL
/// §5.1): `&`-separated `name=value`, `+` for a space, `%XX` bytes that must spell UTF-8.
enum FormURLEncoded {
    /// The pairs in order, or nil when a `%` escape is malformed or the bytes are not UTF-8.
    static func decode(_ text: some StringProtocol) -> [(name: String, value: String)]? {
        var pairs: [(name: String, value: String)] = []
        for field in text.split(separator: "&") where !field.isEmpty {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = percentDecode(parts[0], plusIsSpace: true),
                  let value = percentDecode(parts.count > 1 ? parts[1] : "", plusIsSpace: true)
            else { return nil }
            pairs.append((name, value))
        }
        return pairs
    }

    /// The first value of `name` in `pairs`.
    static func value(_ name: String, in pairs: [(name: String, value: String)]) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// `%XX` escapes decoded as UTF-8; nil when an escape is malformed or the result is not UTF-8.
    static func percentDecode(_ text: some StringProtocol, plusIsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < utf8.count,
                      let high = utf8[index + 1].hexDigitValue, let low = utf8[index + 2].hexDigitValue
                else { return nil }
                bytes.append(UInt8(high * 16 + low))
                index += 3
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(bytes: bytes, encoding: .utf8)
    }
}

extension FormURLEncoded {
    /// `pairs` as `name=value&...`, every byte but letters, digits and `*-._` escaped, a space as `+`.
    static func encode(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { escaped($0.name) + "=" + escaped($0.value) }.joined(separator: "&")
    }

    private static func escaped(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                result += "+"
            default:
                result += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return result
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
