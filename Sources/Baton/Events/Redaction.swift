import Foundation

/// Hides secrets in what monitors print: header values, and token fields of form and JSON
/// bodies.
public struct Redaction: Sendable {
    /// Header names (any case) whose values are replaced by `<redacted>`.
    public var headers: Set<String>
    /// Field names whose values are replaced in `application/x-www-form-urlencoded` and JSON
    /// bodies.
    public var bodyFields: Set<String>

    /// `Authorization`, `Cookie`, `Set-Cookie`, `Proxy-Authorization`; and the OAuth fields
    /// `token`, `access_token`, `refresh_token`, `password`, `client_secret`.
    public static let `default` = Redaction(
        headers: ["authorization", "cookie", "set-cookie", "proxy-authorization"],
        bodyFields: ["token", "access_token", "refresh_token", "password", "client_secret"]
    )

    public static let placeholder = "<redacted>"

    public init(headers: Set<String>, bodyFields: Set<String>) {
        self.headers = Set(headers.map { $0.lowercased() })
        self.bodyFields = bodyFields
    }

    /// `value`, or the placeholder if `name` is a secret header.
    public func headerValue(_ value: String, for name: String) -> String {
        headers.contains(name.lowercased()) ? Self.placeholder : value
    }

    /// `body` as text with secret fields replaced, for a body of `contentType`. Bodies that are
    /// neither form nor JSON are summarised by their length.
    public func body(_ body: Data, contentType: String?) -> String {
        let type = contentType?.lowercased() ?? ""
        if type.hasPrefix("application/x-www-form-urlencoded") {
            let text = String(decoding: body, as: UTF8.self)
            return text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                return bodyFields.contains(name) ? "\(parts[0])=\(Self.placeholder)" : String(pair)
            }.joined(separator: "&")
        }
        if type.contains("json"), let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) {
            let redacted = redactJSON(object)
            if let data = try? JSONSerialization.data(withJSONObject: redacted, options: [.sortedKeys, .fragmentsAllowed]) {
                return String(decoding: data, as: UTF8.self)
            }
        }
        if type.hasPrefix("text/") { return String(decoding: body, as: UTF8.self) }
        return "<\(body.count) bytes>"
    }

    private func redactJSON(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var copy: [String: Any] = [:]
            for (key, item) in object { copy[key] = bodyFields.contains(key) ? Self.placeholder : redactJSON(item) }
            return copy
        }
        if let array = value as? [Any] { return array.map(redactJSON) }
        return value
    }
}
