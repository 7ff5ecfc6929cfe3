import Foundation

/// Hides secrets in what monitors and error messages print: header values, and token fields of
/// form bodies, JSON bodies and query strings. Names are compared without regard to case.
public struct Redaction: Sendable {
    /// Header names (any case) whose values are replaced by `<redacted>`.
    public var headers: Set<String>
    /// Field names whose values are replaced in `application/x-www-form-urlencoded` and JSON
    /// bodies, and in query strings.
    public var bodyFields: Set<String>

    /// `Authorization`, `Cookie`, `Set-Cookie`, `Proxy-Authorization`; and the OAuth fields
    /// `token`, `access_token`, `refresh_token`, `password`, `client_secret`.
    public static let `default` = Redaction(
        headers: ["authorization", "cookie", "set-cookie", "proxy-authorization"],
        bodyFields: ["token", "access_token", "refresh_token", "password", "client_secret"]
    )

    /// The text that replaces a hidden value: `<redacted>`.
    public static let placeholder = "<redacted>"

    /// Hides the values of the header fields `headers` and the body and query fields `bodyFields`, named
    /// in any case.
    public init(headers: Set<String>, bodyFields: Set<String>) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.bodyFields = Set(bodyFields.map { $0.lowercased() })
    }

    /// This redaction, also hiding the headers named in `names`.
    public func hiding(headers names: Set<String>) -> Redaction {
        Redaction(headers: headers.union(names), bodyFields: bodyFields)
    }

    /// `value`, or the placeholder if `name` is a secret header.
    public func headerValue(_ value: String, for name: String) -> String {
        headers.contains(name.lowercased()) ? Self.placeholder : value
    }

    /// `body` as text with secret fields replaced, for a body of `contentType`. Bodies that are
    /// neither form, JSON nor text are summarised by their length, unless `unknownAsText`.
    public func body(_ body: Data, contentType: String?, unknownAsText: Bool = false) -> String {
        let type = contentType?.lowercased() ?? ""
        if type.hasPrefix("application/x-www-form-urlencoded") {
            return formFields(String(decoding: body, as: UTF8.self))
        }
        if type.contains("json"), let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) {
            var changed = false
            let redacted = redactJSON(object, changed: &changed)
            // Rewritten only when a secret was hidden, so that other bodies read as they arrived.
            if changed, let data = try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys, .fragmentsAllowed]) {
                return String(decoding: data, as: UTF8.self)
            }
            return String(decoding: body, as: UTF8.self)
        }
        if type.hasPrefix("text/") || unknownAsText { return String(decoding: body, as: UTF8.self) }
        return "<\(body.count) bytes>"
    }

    /// `url` as text, with its password and the values of secret query items replaced.
    ///
    /// The text is assembled rather than set back into `URLComponents`: the placeholder's `<`
    /// and `>` are not allowed in a percent-encoded query, and Foundation traps on them.
    public func url(_ url: URL) -> String {
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
            return bodyFields.contains(name.lowercased()) ? "\(parts[0])=\(Self.placeholder)" : String(pair)
        }.joined(separator: "&")
    }

    private func redactJSON(_ value: Any, changed: inout Bool) -> Any {
        if let object = value as? [String: Any] {
            var copy: [String: Any] = [:]
            for (key, item) in object {
                if bodyFields.contains(key.lowercased()) {
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
}
