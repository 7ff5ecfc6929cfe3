import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// The request as a `curl` command line, with secrets hidden by `redaction`: for logs and bug
    /// reports. Arguments are single-quoted for a POSIX shell.
    ///
    /// ```
    /// curl -X POST 'http://127.0.0.1:8080/tokens' -H 'Content-Type: application/x-www-form-urlencoded' --data-raw 'grant_type=password&username=demo&password=<redacted>'
    /// ```
    public func curlCommand(redaction: Redaction = .default) -> String {
        var parts = ["curl"]
        let method = httpMethod ?? "GET"
        if method != "GET" { parts += ["-X", method] }
        parts.append(Self.quote(url.map(redaction.url) ?? ""))
        for (name, value) in (allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            parts += ["-H", Self.quote("\(name): \(redaction.headerValue(value, for: name))")]
        }
        if let body = httpBody, !body.isEmpty {
            parts += ["--data-raw", Self.quote(redaction.body(body, contentType: value(forHTTPHeaderField: "Content-Type")))]
        }
        return parts.joined(separator: " ")
    }

    private static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
