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

/// Decides, after an attempt failed, whether to try again and when.
///
/// Retriers see every failure: transport errors, and unacceptable status codes, content types and
/// bodies (there is no separate validation step to forget). They are asked in the order the
/// client lists them; the first that does not answer ``RetryDecision/doNotRetry`` decides.
/// A cancelled call is never offered for retry.
public protocol RequestRetrier: Sendable {
    /// Whether to try again after the attempt `context` describes failed with `error`, and after what
    /// delay. May wait asynchronously before answering.
    func retry(_ request: URLRequest, failedWith error: any Error, context: AttemptContext) async -> RetryDecision
}

/// What an adapter or retrier knows about the attempt at hand.
public struct AttemptContext: Sendable {
    /// The call, as errors and events name it.
    public var request: RequestSummary
    /// 1 for the first attempt, 2 for the first retry, and so on.
    public var attempt: Int
    /// The response of the failed attempt, when there was one (for retriers).
    public var response: HTTPResponse?

    /// The context of attempt number `attempt` (1 for the first) of `request`.
    public init(request: RequestSummary, attempt: Int, response: HTTPResponse? = nil) {
        self.request = request
        self.attempt = attempt
        self.response = response
    }
}

/// A retrier's answer.
public enum RetryDecision: Sendable, Equatable {
    /// Fail the call with the attempt's error.
    case doNotRetry
    /// Start a new attempt after `delay`.
    case retry(after: Duration)
}

/// Sets header fields on every request, such as a session token and a custom User-Agent
/// (source document 004). Values are read when each attempt starts, so they may change.
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
        for (name, value) in try await headers() { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }
}

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
