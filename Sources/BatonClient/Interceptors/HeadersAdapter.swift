import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// Sets header fields on every request, such as a session token and a custom User-Agent.
/// Values are read when each attempt starts, so they may change.
///
/// ```swift
/// let headers = HeadersAdapter { ["X-Session-Token": session.token, "User-Agent": "MyApp/2.0"] }
/// ```
public struct HeadersAdapter: RequestAdapter {
    private let headers: @Sendable () async throws -> [String: String]

    /// Sets the headers `headers` returns.
    public init(_ headers: @escaping @Sendable () async throws -> [String: String]) {
        self.headers = headers
    }

    /// Sets fixed headers.
    public init(_ headers: [String: String]) {
        self.headers = { headers }
    }

    /// Sets the headers on `request`, replacing fields of the same name: see
    /// ``RequestAdapter/adapt(_:context:)``.
    public func adapt(_ request: URLRequest, context: AttemptContext) async throws -> URLRequest {
        var request = request
        for (name, value) in try await headers() {
            // URLRequest on Linux silently drops a value with a line break: refuse it instead,
            // rather than send the request without the field.
            try HeaderSyntax.validateHeader(name, value, summary: context.request, setBy: " (set by an adapter)")
            request.setValue(value, forHTTPHeaderField: name)
        }
        return request
    }
}
