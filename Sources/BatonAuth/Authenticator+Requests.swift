import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonClient
import BatonWire

/// What the authenticator reads and writes on a request: its bearer token, and what a `401` to a
/// request sent without one means.
extension Authenticator {
    /// The error for a `401` to a request that went to the API without a token because there
    /// are no credentials (and none on the way), rather than the bare `401`; `nil` otherwise.
    func refusalForWantOfLogin(_ request: URLRequest, failedWith error: any Error, context: AttemptContext) -> AuthenticationError? {
        guard let response = (error as? APIError)?.response ?? context.response, response.statusCode == 401,
              request.value(forHTTPHeaderField: "Authorization") == nil,
              let origin = Origin(request.url), origin == apiOrigin else { return nil }
        loadIfNeeded()
        let loggedOut = session.withLock(annotating: self) { $0.credentials == nil && $0.refresh == nil }
        guard loggedOut else { return nil }
        let summary = (error as? APIError)?.request.description ?? "the request"
        return AuthenticationError(
            .notLoggedIn, response: response, underlyingError: error,
            detail: "\(summary) was answered \(response.statusCode) \(response.reasonPhrase), and the authenticator has no credentials to send"
        )
    }

    /// `request` with `Authorization: Bearer <token>`, or as it is without a token.
    static func request(_ request: URLRequest, bearing token: String?) -> URLRequest {
        guard let token else { return request }
        var request = request
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }

    /// The token of a request's `Authorization: Bearer` field, if it has one.
    static func bearerToken(of request: URLRequest) -> String? {
        guard let value = request.value(forHTTPHeaderField: "Authorization") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1])
    }
}
