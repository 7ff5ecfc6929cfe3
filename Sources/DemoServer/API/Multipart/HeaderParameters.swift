/// A header value with parameters, such as `form-data; name="photo"; filename="a.jpg"` or
/// `multipart/form-data; boundary=----x`, split into its value and its parameters (RFC 9110 §5.6.6).
///
/// Parameter names are lower-cased. Values may be tokens or quoted strings with backslash escapes;
/// an RFC 8187 extended value (`filename*=UTF-8''%E5%86%99.jpg`) is decoded and, per RFC 6266 §4.3,
/// takes the place of the plain parameter of the same name.
struct HeaderParameters: Sendable, Equatable {
    /// The part before the first `;`, lower-cased: `form-data`, `image/jpeg`.
    var value: String
    var parameters: [String: String]

    subscript(_ name: String) -> String? { parameters[name.lowercased()] }

    /// Nil when the text is not `value *( ";" name "=" (token / quoted-string) )`.
    static func parse(_ text: String) -> HeaderParameters? {
        var scanner = Array(text.unicodeScalars)[...]
        func skipSpace() {
            while let first = scanner.first, first == " " || first == "\t" { scanner.removeFirst() }
        }
        skipSpace()
        var value = ""
        while let first = scanner.first, first != ";" {
            value.unicodeScalars.append(first)
            scanner.removeFirst()
        }
        value = value.trimmingOWS().lowercased()
        guard !value.isEmpty else { return nil }
        var plain: [String: String] = [:]
        var extended: [String: String] = [:]
        while let first = scanner.first, first == ";" {
            scanner.removeFirst()
            skipSpace()
            if scanner.isEmpty { break }
            var name = ""
            while let first = scanner.first, first != "=", first != ";", first != " ", first != "\t" {
                name.unicodeScalars.append(first)
                scanner.removeFirst()
            }
            skipSpace()
            guard !name.isEmpty, scanner.first == "=" else { return nil }
            scanner.removeFirst()
            skipSpace()
            var parameter = ""
            if scanner.first == "\"" {
                scanner.removeFirst()
                var closed = false
                while let next = scanner.popFirst() {
                    if next == "\"" { closed = true; break }
                    if next == "\\" {
                        guard let escaped = scanner.popFirst() else { return nil }
                        parameter.unicodeScalars.append(escaped)
                    } else {
                        parameter.unicodeScalars.append(next)
                    }
                }
                guard closed else { return nil }
                skipSpace()
            } else {
                while let first = scanner.first, first != ";" {
                    parameter.unicodeScalars.append(first)
                    scanner.removeFirst()
                }
                parameter = parameter.trimmingOWS()
                guard !parameter.isEmpty else { return nil }
            }
            guard scanner.isEmpty || scanner.first == ";" else { return nil }
            name = name.lowercased()
            if name.hasSuffix("*") {
                guard let decoded = decodeExtendedValue(parameter) else { return nil }
                extended[String(name.dropLast())] = decoded
            } else {
                plain[name] = parameter
            }
        }
        guard scanner.isEmpty else { return nil }
        return HeaderParameters(value: value, parameters: plain.merging(extended) { _, new in new })
    }

    /// RFC 8187 `charset'language'value-chars`, for UTF-8 (and its ASCII subset) only.
    static func decodeExtendedValue(_ text: String) -> String? {
        let pieces = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3, ["utf-8", "us-ascii"].contains(pieces[0].lowercased()) else { return nil }
        return FormURLEncoded.percentDecode(pieces[2])
    }
}
