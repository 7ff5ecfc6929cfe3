/// An HTTP request method (RFC 9110 §9).
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method's token as sent on the wire, such as `GET`.
    public let rawValue: String

    /// The method whose token is `rawValue`, taken as it is (method tokens are case-sensitive).
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The method written as a literal, such as `"TRACE"`, taken as it is.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `GET` (RFC 9110 §9.3.1).
    public static let get: HTTPMethod = "GET"
    /// `HEAD` (RFC 9110 §9.3.2).
    public static let head: HTTPMethod = "HEAD"
    /// `POST` (RFC 9110 §9.3.3).
    public static let post: HTTPMethod = "POST"
    /// `PUT` (RFC 9110 §9.3.4).
    public static let put: HTTPMethod = "PUT"
    /// `PATCH` (RFC 5789).
    public static let patch: HTTPMethod = "PATCH"
    /// `DELETE` (RFC 9110 §9.3.5).
    public static let delete: HTTPMethod = "DELETE"
    /// `OPTIONS` (RFC 9110 §9.3.7).
    public static let options: HTTPMethod = "OPTIONS"

    /// Whether sending the request twice has the same effect as sending it once (RFC 9110
    /// §9.2.2): the default retry policy retries only these.
    public var isIdempotent: Bool {
        Self.idempotentMethods.contains(self)
    }

    /// RFC 9110's idempotent methods: `GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`, `TRACE`.
    public static let idempotentMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, "TRACE"]

    /// The method's token as sent on the wire, such as `GET`.
    public var description: String { rawValue }
}
