import Foundation
import BatonClient

/// How an ``Authenticator`` recognises a response that says the access token has expired (and so
/// is worth a refresh), as opposed to any other refusal.
///
/// Only a `401` can match the built-in rules. A `403`, a `401` challenging for
/// `insufficient_scope`, and a `401` with no error (what servers answer when no credentials were
/// sent) are never taken for an expired token: a new token would not change the response.
///
/// ```swift
/// let authenticator = try Authenticator(tokenURL: api.appending(path: "tokens")) { configuration in
///     configuration.expiredToken = .bearerChallenge                // RFC 6750 servers only
///     configuration.expiredToken = .either(.bearerChallenge, .bodyMessage("token_expired", field: "code"))
/// }
/// ```
public struct ExpiredTokenDetection: Sendable {
    private let matches: @Sendable (HTTPResponse) -> Bool

    /// A rule of your own: `matches` says whether `response` means the access token expired.
    public init(_ matches: @escaping @Sendable (HTTPResponse) -> Bool) {
        self.matches = matches
    }

    /// Whether `response` says the access token expired.
    public func isExpiredToken(_ response: HTTPResponse) -> Bool {
        matches(response)
    }

    /// `401` with `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750 §3.1).
    public static let bearerChallenge = ExpiredTokenDetection { response in
        guard response.statusCode == 401, let header = response.value(forHeader: "WWW-Authenticate") else { return false }
        return BearerChallenge.errors(in: header).contains("invalid_token")
    }

    /// `401` whose JSON body has `field` equal to `value`, as in `{"message": "invalid_token"}`.
    public static func bodyMessage(_ value: String = "invalid_token", field: String = "message") -> ExpiredTokenDetection {
        ExpiredTokenDetection { response in
            guard response.statusCode == 401 else { return false }
            return TokenResponseReading.string(field, in: response.body) == value
        }
    }

    /// Matches when any of `rules` does.
    public static func either(_ rules: ExpiredTokenDetection...) -> ExpiredTokenDetection {
        ExpiredTokenDetection { response in rules.contains { $0.matches(response) } }
    }

    /// ``bearerChallenge`` or `{"message": "invalid_token"}`: the default.
    public static let `default` = either(.bearerChallenge, .bodyMessage())
}

/// Reads the `error` parameters of the `Bearer` challenges in a `WWW-Authenticate` value.
enum BearerChallenge {
    /// The `error` values of every `Bearer` challenge in `header`, such as `["invalid_token"]`.
    ///
    /// A pragmatic reading of RFC 9110 §11.6.1: challenges are split where a scheme name starts
    /// (a token followed by a space, outside quotes), and `error` is read as a token or a quoted
    /// string. Enough for what authorization servers send, and it never traps on odd input.
    static func errors(in header: String) -> [String] {
        var errors: [String] = []
        var scheme: Substring?
        for item in splitOutsideQuotes(header) {
            var item = item.drop { $0 == " " || $0 == "\t" }
            // "Bearer realm=x" starts a challenge; "error=x" continues one.
            if let space = item.firstIndex(of: " "), !item[..<space].contains("=") {
                scheme = item[..<space]
                item = item[space...].drop { $0 == " " || $0 == "\t" }
            } else if !item.contains("=") {
                scheme = item
                continue
            }
            guard scheme?.lowercased() == "bearer", let equals = item.firstIndex(of: "=") else { continue }
            let name = item[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            guard name == "error" else { continue }
            var value = item[item.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\", with: "")
            }
            errors.append(value)
        }
        return errors
    }

    /// `text` split at commas that are not inside a quoted string.
    private static func splitOutsideQuotes(_ text: String) -> [Substring] {
        var parts: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var escaped = false
        for index in text.indices {
            let character = text[index]
            if escaped {
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
            } else if character == ",", !quoted {
                parts.append(text[start..<index])
                start = text.index(after: index)
            }
        }
        parts.append(text[start...])
        return parts
    }
}
