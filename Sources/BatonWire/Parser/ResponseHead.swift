/// An HTTP/1.x version: `HTTP/1.1` is major 1, minor 1.
package struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    package var major: Int
    package var minor: Int

    package static let http1_0 = HTTPVersion(major: 1, minor: 0)
    package static let http1_1 = HTTPVersion(major: 1, minor: 1)

    package var description: String { "HTTP/\(major).\(minor)" }
}

/// The head of a server's final response: its status line and header fields, as received.
package struct ResponseHead: Sendable {
    package var version: HTTPVersion
    package var status: Int
    /// The reason phrase, possibly empty; it carries no meaning (RFC 9112 §4).
    package var reason: String
    /// The header fields in the order received, names as written, values without surrounding
    /// whitespace.
    package var fields: [(name: String, value: String)]

    package init(version: HTTPVersion, status: Int, reason: String, fields: [(name: String, value: String)] = []) {
        self.version = version
        self.status = status
        self.reason = reason
        self.fields = fields
    }

    /// The value of the field `name` (compared without case): the one value, or every value in
    /// order joined by `", "` as RFC 9110 §5.3 combines field lines; `nil` when there is none.
    /// For `Set-Cookie`, which does not combine, use `values(for:)`.
    package subscript(name: String) -> String? {
        let values = values(for: name)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// Every value of the field `name` (compared without case), in the order received.
    package func values(for name: String) -> [String] {
        fields.compactMap { WireText.equalIgnoringCase($0.name, name) ? $0.value : nil }
    }
}
