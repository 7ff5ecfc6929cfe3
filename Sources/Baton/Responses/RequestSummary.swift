import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Names a request in errors and events: its method and its path with query, as sent (the
/// values of token and password query items hidden).
public struct RequestSummary: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP method.
    public var method: HTTPMethod
    /// The full URL, when it could be built.
    public var url: URL?
    /// The path relative to the base URL, as the endpoint gave it.
    public var path: String

    /// Names a request of `method` to `url` (`nil` if it could not be built), for the endpoint path `path`.
    public init(method: HTTPMethod, url: URL?, path: String) {
        self.method = method
        self.url = url
        self.path = path
    }

    /// The method, then the URL's path and query with secret values hidden, as in `GET /v1/orders?page=2`;
    /// `GET /orders/7`, from ``path``, when there is no URL.
    public var description: String {
        if let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.scheme = nil
            components.host = nil
            components.port = nil
            components.user = nil
            components.password = nil
            let query = components.percentEncodedQuery.map { "?" + Redaction.default.formFields($0) } ?? ""
            return "\(method) \(components.percentEncodedPath)\(query)"
        }
        return "\(method) /\(path)"
    }
}
