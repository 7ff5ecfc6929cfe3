/// An HTTP request method (RFC 9110 §9).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method's token as sent on the wire, such as `GET`.
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public static let get: HTTPMethod = "GET"
    public static let head: HTTPMethod = "HEAD"
    public static let post: HTTPMethod = "POST"
    public static let put: HTTPMethod = "PUT"
    public static let patch: HTTPMethod = "PATCH"
    public static let delete: HTTPMethod = "DELETE"
    public static let options: HTTPMethod = "OPTIONS"

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110
    /// §9.2.2): the default retry policy retries only these.
    public var isIdempotent: Bool {
        Self.idempotentMethods.contains(self)
    }

    /// RFC 9110's idempotent methods: `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`, `TRACE`.
    public static let idempotentMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, "TRACE"]

    public var description: String { rawValue }
}
