/// The HTTP version of a request line; only major version 1 is served.
struct HTTPVersion: Sendable, Equatable, CustomStringConvertible {
    var major: Int
    var minor: Int

    static let http1_0 = HTTPVersion(major: 1, minor: 0)
    static let http1_1 = HTTPVersion(major: 1, minor: 1)

    var description: String { "HTTP/\(major).\(minor)" }
}

/// How a request's body is delimited (RFC 9112 §6.3).
enum BodyFraming: Sendable, Equatable {
    case none
    case contentLength(Int)
    case chunked
}

/// A request line and header block that the parser accepted.
struct HTTPRequestHead: Sendable {
    var method: String
    /// The request target as sent, such as `/order_search?name=%E5%B1%B1`.
    var target: String
    /// The target's path, still percent-encoded.
    var path: String
    /// The target's query without `?`, still percent-encoded; empty when there is none.
    var query: String
    var version: HTTPVersion
    var headers: HTTPHeaders
    var framing: BodyFraming
    /// Whether the client waits for `100 Continue` before sending the body.
    var expectsContinue: Bool

    /// Whether the connection stays open after this exchange (RFC 9112 §9.3).
    var keepAlive: Bool {
        let options = headers.tokens("Connection")
        if options.contains("close") { return false }
        return version == .http1_1 || options.contains("keep-alive")
    }
}
