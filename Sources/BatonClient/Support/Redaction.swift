import Foundation
import BatonWire

/// Hides secrets in whatever Baton prints: log lines, cURL renderings, error descriptions and
/// response descriptions. One redaction serves a whole client (``Client/Configuration/redaction``).
///
/// A field or header is secret when its name is in ``headers`` or ``bodyFields``, or, with
/// ``matchesSecretPatterns`` (the default), when its name looks like one: it contains `token`,
/// `secret`, `password`, `passwd`, `apikey`, `accesskey`, `signature`, `credential`, `session`,
/// `csrf` or `xsrf`, ends in `key`, or is `code`, `code_verifier`, `assertion`,
/// `client_assertion`, `otp`, `auth`, `sig` (Azure's shared-access signature), `sign`, `hmac`,
/// `jwt`, `pwd`, `pass`, `sid`, `SAMLResponse`, `SAMLRequest` or `ticket`. This covers the
/// signed URLs of AWS (`X-Amz-Signature`, `X-Amz-Credential`, `X-Amz-Security-Token`), Google
/// Cloud (`X-Goog-Signature`) and Azure (`sig`), and OAuth's parameters. Names are compared
/// ignoring case, `_` and `-`, so `refresh_token`, `refreshToken` and `Refresh-Token` are one
/// name. Values are hidden in headers, query strings, form and JSON bodies of any size, and in
/// other text where they appear as `name=value`, `name: value`, `"name": "value"` or
/// `Bearer value`.
public struct Redaction: Sendable, Hashable {
    /// Header names whose values are replaced by ``placeholder``, besides those the patterns match.
    public var headers: Set<String>
    /// Field names whose values are replaced in bodies and query strings, besides those the
    /// patterns match.
    public var bodyFields: Set<String>
    /// Whether names that look secret (see the type's description) are hidden too.
    public var matchesSecretPatterns: Bool

    /// `Authorization`, `Cookie`, `Set-Cookie`, `Proxy-Authorization`, the OAuth fields, and every
    /// name the secret patterns match.
    public static let `default` = Redaction(
        headers: ["authorization", "cookie", "set-cookie", "proxy-authorization"],
        bodyFields: ["token", "access_token", "refresh_token", "id_token", "password", "client_secret", "code"]
    )

    /// The text that replaces a hidden value: `<redacted>`.
    public static let placeholder = "<redacted>"

    /// Hides the values of the header fields `headers` and the body and query fields `bodyFields`
    /// (compared ignoring case, `_` and `-`), and of names matching the secret patterns unless
    /// `matchesSecretPatterns` is `false`.
    public init(headers: Set<String>, bodyFields: Set<String>, matchesSecretPatterns: Bool = true) {
        self.headers = Set(headers.map(Self.normalized))
        self.bodyFields = Set(bodyFields.map(Self.normalized))
        self.matchesSecretPatterns = matchesSecretPatterns
    }

    /// This redaction, also hiding the headers named in `names`.
    package func hiding(headers names: Set<String>) -> Redaction {
        Redaction(headers: headers.union(names), bodyFields: bodyFields, matchesSecretPatterns: matchesSecretPatterns)
    }

    /// What both `self` and `other` hide.
    package func merged(with other: Redaction) -> Redaction {
        Redaction(
            headers: headers.union(other.headers), bodyFields: bodyFields.union(other.bodyFields),
            matchesSecretPatterns: matchesSecretPatterns || other.matchesSecretPatterns
        )
    }

    /// Whether the header `name` is secret.
    package func isSecretHeader(_ name: String) -> Bool {
        let name = Self.normalized(name)
        return headers.contains(name) || bodyFields.contains(name) || matchesSecretPatterns && Self.looksSecret(name)
    }

    /// Whether the body or query field `name` is secret.
    package func isSecretField(_ name: String) -> Bool {
        let name = Self.normalized(name)
        return bodyFields.contains(name) || matchesSecretPatterns && Self.looksSecret(name)
    }

    /// `value`, or the placeholder if `name` is a secret header.
    package func headerValue(_ value: String, for name: String) -> String {
        isSecretHeader(name) ? Self.placeholder : value
    }

    /// `body` as text with secret values replaced, for a body of `contentType`. Bodies that are
    /// neither form, JSON nor text are summarised by their length, unless `unknownAsText`; a
    /// body too large to parse is scanned as text.
    package func body(_ body: Data, contentType: String?, unknownAsText: Bool = false) -> String {
        let type = contentType?.lowercased() ?? ""
        if type.hasPrefix("application/x-www-form-urlencoded") {
            return formFields(String(decoding: body, as: UTF8.self))
        }
        if type.contains("json"), body.count <= Self.largestParsedBody,
           let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) {
            var changed = false
            let redacted = redactJSON(object, changed: &changed)
            // Rewritten only when a secret was hidden, so that other bodies read as they arrived.
            if changed, let data = try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys, .fragmentsAllowed]) {
                return String(decoding: data, as: UTF8.self)
            }
            return String(decoding: body, as: UTF8.self)
        }
        if type.contains("json") || type.hasPrefix("text/") || unknownAsText {
            return text(String(decoding: body, as: UTF8.self))
        }
        return "<\(body.count) bytes>"
    }

    /// Bodies larger than this are scanned as text rather than parsed: a preview needs only
    /// their start, and parsing megabytes to print a hundred characters would be waste.
    static let largestParsedBody = 1 << 20

    /// Free text with secret values hidden wherever they appear as `name=value`, `name: value`,
    /// `"name": "value"` or `Bearer value`.
    package func text(_ text: String) -> String {
        // Bearer and Basic credentials first: an assignment would take the scheme for the value.
        let all = NSRange(text.startIndex..., in: text)
        var result = Self.bearer.stringByReplacingMatches(in: text, range: all, withTemplate: "$1" + Self.placeholder)
        let whole = NSRange(result.startIndex..., in: result)
        for match in Self.assignment.matches(in: result, range: whole).reversed() {
            guard let nameRange = Range(match.range(at: 2), in: result), isSecretField(String(result[nameRange])),
                  let valueRange = Range(match.range(at: 4), in: result)
            else { continue }
            let value = result[valueRange]
            let quote = value.first.flatMap { $0 == "\"" || $0 == "'" ? String($0) : nil } ?? ""
            guard value != Self.placeholder, !value.hasPrefix("Bearer "), !value.hasPrefix("Basic ") else { continue }
            result.replaceSubrange(valueRange, with: quote + Self.placeholder + quote)
        }
        return result
    }

    /// `url` as text, with its password and the values of secret query items replaced.
    ///
    /// The text is assembled rather than set back into `URLComponents`: the placeholder's `<`
    /// and `>` are not allowed in a percent-encoded query, and Foundation traps on them.
    package func url(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return "<a URL that does not parse>"
        }
        let query = components.percentEncodedQuery
        let fragment = components.percentEncodedFragment
        let hasPassword = components.percentEncodedPassword != nil
        components.percentEncodedQuery = nil
        components.percentEncodedFragment = nil
        components.percentEncodedPassword = nil
        var text = components.string ?? ""
        if hasPassword, let user = components.percentEncodedUser, let at = text.range(of: "//\(user)@") {
            text.replaceSubrange(at, with: "//\(user):\(Self.placeholder)@")
        }
        if let query { text += "?" + formFields(query) }
        if let fragment { text += "#" + fragment }
        return text
    }

    /// `name=value&...` with the values of secret fields replaced.
    func formFields(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = (String(parts[0]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(parts[0]))
            return isSecretField(name) ? "\(parts[0])=\(Self.placeholder)" : String(pair)
        }.joined(separator: "&")
    }

    private func redactJSON(_ value: Any, changed: inout Bool) -> Any {
        if let object = value as? [String: Any] {
            var copy: [String: Any] = [:]
            for (key, item) in object {
                if isSecretField(key), !(item is [String: Any]) {
                    copy[key] = Self.placeholder
                    changed = true
                } else {
                    copy[key] = redactJSON(item, changed: &changed)
                }
            }
            return copy
        }
        if let array = value as? [Any] { return array.map { redactJSON($0, changed: &changed) } }
        return value
    }

    // MARK: Names

    /// `name` lower-cased, without `_` and `-`.
    static func normalized(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" })
    }

    /// Parts of names that make a name secret wherever they appear in it: AWS's
    /// `X-Amz-Signature`, `X-Amz-Credential`, `X-Amz-Security-Token` and `AWSAccessKeyId`,
    /// Google Cloud's `X-Goog-Signature`, OAuth's `*_token` and `client_secret`, CSRF tokens.
    private static let secretParts = [
        "token", "secret", "password", "passwd", "apikey", "accesskey", "signature", "credential", "session", "csrf", "xsrf",
    ]
    /// Whole names that are secret: Azure shared-access signatures' `sig`, OAuth's `code`,
    /// `code_verifier`, `assertion` and `client_assertion`, one-time codes, short forms of
    /// passwords and signatures, SAML responses, CAS tickets.
    private static let secretNames: Set<String> = [
        "code", "codeverifier", "assertion", "clientassertion", "otp", "auth", "authorization", "cookie", "setcookie",
        "sig", "sign", "hmac", "jwt", "pwd", "pass", "sid", "samlresponse", "samlrequest", "ticket",
    ]

    /// Whether a normalized name looks like a secret's.
    private static func looksSecret(_ name: String) -> Bool {
        secretNames.contains(name) || name.hasSuffix("key") || secretParts.contains { name.contains($0) }
    }

    /// `name=value`, `name: value`, `"name": "value"`: group 2 is the name, group 4 the value.
    // A literal pattern: it compiles, so `try!` cannot fail.
    private static let assignment = try! NSRegularExpression(
        pattern: #"(["']?)([A-Za-z0-9_.\-]+)\1(\s*[:=]\s*)("(?:[^"\\]|\\.)*"|'[^']*'|[^\s&,;}\]"']+)"#
    )
    /// `Bearer value`, the scheme kept in group 1.
    // A literal pattern: it compiles, so `try!` cannot fail.
    private static let bearer = try! NSRegularExpression(
        pattern: #"((?i:bearer|basic)\s+)[A-Za-z0-9._~+/=\-]+"#
    )
}
