import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Adds `Authorization: Bearer <token>` (RFC 6750 §2.1) to every request, with the token its
/// closure returns when each attempt starts; `nil` sends the request without one.
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
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        }
        return request
    }
}
