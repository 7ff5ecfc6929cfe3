import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// Adds `Authorization: Bearer <token>` (RFC 6750 §2.1) to every request, with the token its
/// closure returns when each attempt starts; `nil` sends the request without one.
///
/// For a token you obtain and renew yourself. To log in, renew expired tokens and replay the
/// requests that met them, use an `Authenticator` instead.
public struct BearerTokenAdapter: RequestAdapter {
    private let token: @Sendable () async throws -> String?

    /// Sends the token `token` returns when each attempt starts; `nil` adds no `Authorization` header.
    public init(token: @escaping @Sendable () async throws -> String?) {
        self.token = token
    }

    /// Sets `Authorization: Bearer <token>` when the closure returns a token, replacing any such field:
    /// see ``RequestAdapter/adapt(_:context:)``.
    public func adapt(_ request: URLRequest, context: AttemptContext) async throws -> URLRequest {
        var request = request
        if let token = try await token() {
            // URLRequest on Linux silently drops a value with a line break: refuse it instead,
            // rather than send the request without credentials.
            try HeaderSyntax.validateHeader("Authorization", "Bearer \(token)", summary: context.request, setBy: " (set by an adapter)")
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        return request
    }
}
