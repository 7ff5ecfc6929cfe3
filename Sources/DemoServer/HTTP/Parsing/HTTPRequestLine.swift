/// The request line of an HTTP/1.1 request (RFC 9112 §3): `METHOD SP TARGET SP VERSION`, with the
/// target in origin form, absolute form or, for `OPTIONS`, `*`.
enum HTTPRequestLine {
    /// The methods DemoServer knows; any other is refused.
    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"]

    /// The head a request line starts (its header fields still empty), or why the line is not one.
    static func parse(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPRequestHead {
        let parts = line.split(separator: .space, omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }), !line.contains(.cr) else {
            throw .badRequest("request line is not METHOD SP TARGET SP VERSION")
        }
        guard parts[0].allSatisfy(\.isTokenCharacter) else { throw .badRequest("invalid method") }
        let method = String(decoding: parts[0], as: UTF8.self)
        guard Self.knownMethods.contains(method) else { throw .badRequest("unknown method \(method)") }
        let version = try parseVersion(parts[2])
        var target = String(decoding: parts[1], as: UTF8.self)
        let original = target
        if target.hasPrefix("http://") || target.hasPrefix("https://") {
            // Absolute form (RFC 9112 §3.2.2): keep the path and query after the authority.
            let afterScheme = target.dropFirst(target.hasPrefix("https://") ? 8 : 7)
            target = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }).map { String(afterScheme[$0...]) } ?? "/"
            if target.hasPrefix("?") { target = "/" + target }
        } else if target == "*" {
            guard method == "OPTIONS" else { throw .badRequest("asterisk target outside OPTIONS") }
        } else if !target.hasPrefix("/") {
            throw .badRequest("request target is not a path")
        }
        let pathEnd = target.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? target.endIndex
        var query = ""
        if pathEnd < target.endIndex, target[pathEnd] == "?" {
            let rest = target[target.index(after: pathEnd)...]
            query = String(rest.prefix { $0 != "#" })
        }
        return HTTPRequestHead(
            method: method, target: original, path: String(target[..<pathEnd]), query: query,
            version: version, headers: HTTPHeaders(), framing: .none, expectsContinue: false
        )
    }

    /// `HTTP/1.0` or `HTTP/1.1` (any other 1.x is served as 1.1); another major version is refused.
    private static func parseVersion(_ bytes: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPVersion {
        let text = Array(bytes)
        guard text.count == 8, text[0..<5].elementsEqual("HTTP/".utf8), text[6] == UInt8(ascii: "."),
              let major = text[5].decimalDigitValue, let minor = text[7].decimalDigitValue
        else { throw .badRequest("invalid HTTP version") }
        guard major == 1 else { throw .versionNotSupported }
        return HTTPVersion(major: 1, minor: minor == 0 ? 0 : 1)
    }
}
