import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Changes a request before each attempt: adds a header, a token, a signature.
///
/// Adapters run in the order the client lists them, before every attempt (a retry is adapted
/// again, so a refreshed token is picked up). They may wait asynchronously, for instance for a
/// token being refreshed. An error an adapter throws fails the attempt, with nothing sent; the
/// retriers then decide, as for any failure (the default ``RetryPolicy`` retries it only if it
/// is a transient `URLError`), and the call fails with that error if none retries.
public protocol RequestAdapter: Sendable {
    /// Returns `request` as it should be sent for the attempt `context` describes; throwing fails the
    /// attempt, with nothing sent.
    func adapt(_ request: URLRequest, context: AttemptContext) async throws -> URLRequest
}
