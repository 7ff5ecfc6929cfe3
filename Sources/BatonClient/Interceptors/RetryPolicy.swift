import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// The built-in retrier: exponential backoff with jitter, for failures that a later attempt may
/// not meet.
///
/// An attempt is retried when all of these hold: fewer than ``retryLimit`` retries were made for
/// ``RetryCause/transientFailure`` (retries for other causes, such as a replay after a token
/// refresh, do not count); the
/// method is in ``retryableMethods`` (idempotent ones by default, as sending a `POST` twice may
/// post twice), or the request carries an `Idempotency-Key` (see ``Endpoint/idempotencyKey``)
/// and ``retriesRequestsWithIdempotencyKey`` is on; and the failure is a status in ``retryableStatusCodes`` or a `URLError` code in
/// ``retryableURLErrorCodes``. The delay is `baseDelay * 2^(retry - 1)`, scaled by a random
/// factor in `0.5...1` so that clients failing together do not retry together, and never more
/// than ``maximumDelay``. A `Retry-After` header (seconds or an HTTP date, RFC 9110 §10.2.3) on
/// the failed response replaces the computed delay, capped at ``maximumDelay``.
public struct RetryPolicy: RequestRetrier {
    /// How many retries after the first attempt. Default ``defaultRetryLimit``.
    public var retryLimit: Int
    /// The delay before the first retry; later ones double it.
    public var baseDelay: Duration
    /// No retry waits longer, whatever `Retry-After` asks.
    public var maximumDelay: Duration
    /// The methods whose requests may be retried. Default ``defaultRetryableMethods``.
    public var retryableMethods: Set<HTTPMethod>
    /// The status codes that may be retried. Default ``defaultRetryableStatusCodes``.
    public var retryableStatusCodes: Set<Int>
    /// The `URLError` codes that may be retried. Default ``defaultRetryableURLErrorCodes``.
    public var retryableURLErrorCodes: Set<URLError.Code>
    /// Whether a request carrying an `Idempotency-Key` is retried whatever its method, as the
    /// server that honours the key acts on it once. Default `true`.
    public var retriesRequestsWithIdempotencyKey = true

    /// Two retries: enough to ride out a blip without tripling the load on a struggling server.
    public static let defaultRetryLimit = 2
    /// Half a second: long enough for a brief overload to pass, short enough to go unnoticed.
    public static let defaultBaseDelay = Duration.milliseconds(500)
    /// Ten seconds: longer than a user waits for a screen to fill.
    public static let defaultMaximumDelay = Duration.seconds(10)
    /// RFC 9110's idempotent methods: repeating them has the effect of sending them once.
    public static let defaultRetryableMethods: Set<HTTPMethod> = HTTPMethod.idempotentMethods
    /// Statuses that say "not now" rather than "not this": 408 Request Timeout, 429 Too Many
    /// Requests, 500 Internal Server Error, 502 Bad Gateway, 503 Service Unavailable, 504
    /// Gateway Timeout.
    public static let defaultRetryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504]
    /// Transport failures that a new attempt may not meet. Each, and why:
    /// - `timedOut`: the server or the path was slow this once.
    /// - `networkConnectionLost`: a kept-alive connection was closed under the request (the
    ///   usual reason is the server closing an idle connection just as it was reused), or a
    ///   response body stopped short of its declared length.
    /// - `cannotConnectToHost`: the server may be restarting.
    /// - `dnsLookupFailed`, `cannotFindHost`: resolvers fail transiently.
    /// - `notConnectedToInternet`: connectivity comes back, notably on mobile devices.
    /// - `badServerResponse`: the connection closed before a complete response head arrived
    ///   ("empty reply from server").
    /// Not retried, because another attempt would fail the same way: `badURL`,
    /// `unsupportedURL`, `cancelled`, the TLS and certificate errors, `userAuthenticationRequired`.
    public static let defaultRetryableURLErrorCodes: Set<URLError.Code> = [
        .timedOut, .networkConnectionLost, .cannotConnectToHost, .dnsLookupFailed, .cannotFindHost,
        .notConnectedToInternet, .badServerResponse,
    ]

    /// The policy with every default.
    public static let `default` = RetryPolicy()

    /// A policy with the given settings, each defaulting to its `default…` constant; a negative limit
    /// or delay counts as zero.
    public init(
        retryLimit: Int = defaultRetryLimit,
        baseDelay: Duration = defaultBaseDelay,
        maximumDelay: Duration = defaultMaximumDelay,
        retryableMethods: Set<HTTPMethod> = defaultRetryableMethods,
        retryableStatusCodes: Set<Int> = defaultRetryableStatusCodes,
        retryableURLErrorCodes: Set<URLError.Code> = defaultRetryableURLErrorCodes
    ) {
        self.retryLimit = max(0, retryLimit)
        self.baseDelay = max(.zero, baseDelay)
        self.maximumDelay = max(.zero, maximumDelay)
        self.retryableMethods = retryableMethods
        self.retryableStatusCodes = retryableStatusCodes
        self.retryableURLErrorCodes = retryableURLErrorCodes
    }

    /// Decides as the policy describes, reading the method from `request` (`GET` if it has none): see
    /// ``RequestRetrier/retry(_:failedWith:context:)``. Answers at once, without waiting.
    public func retry(_ request: URLRequest, failedWith error: any Error, context: AttemptContext) async -> RetryDecision {
        decision(for: request, error: error, context: context)
    }

    /// The decision for `request`: its method, or its idempotency key, makes it retryable.
    private func decision(for request: URLRequest, error: any Error, context: AttemptContext) -> RetryDecision {
        let method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        let keyed = retriesRequestsWithIdempotencyKey && request.value(forHTTPHeaderField: IdempotencyKey.headerName) != nil
        return decision(method: method, isKeyed: keyed, error: error, context: context)
    }

    /// The decision, without waiting: what ``retry(_:failedWith:context:)`` answers.
    func decision(method: HTTPMethod, isKeyed: Bool = false, error: any Error, context: AttemptContext, now: Date = Date()) -> RetryDecision {
        let made = context.retries(for: .transientFailure)
        guard made < retryLimit, retryableMethods.contains(method) || isKeyed, isRetryable(error) else {
            return .doNotRetry
        }
        if let retryAfter = context.response.flatMap({ Self.retryAfter($0, now: now) }) {
            return .retry(after: min(retryAfter, maximumDelay), cause: .transientFailure)
        }
        let exponential = baseDelay.saturatingMultiplied(by: 1 << min(made, 30))
        let jittered = exponential * Double.random(in: 0.5...1)
        return .retry(after: min(jittered, maximumDelay), cause: .transientFailure)
    }

    private func isRetryable(_ error: any Error) -> Bool {
        if let error = error as? URLError { return retryableURLErrorCodes.contains(error.code) }
        guard let error = error as? APIError else { return false }
        if let urlError = error.urlError { return retryableURLErrorCodes.contains(urlError.code) }
        if error.kind == .unacceptableStatus, let status = error.statusCode { return retryableStatusCodes.contains(status) }
        return false
    }

    /// The delay a `Retry-After` header asks for, in delta-seconds or as an HTTP date.
    static func retryAfter(_ response: HTTPResponse, now: Date) -> Duration? {
        guard let value = response.value(forHeader: "Retry-After")?.trimmingCharacters(in: .whitespaces) else {
            return nil
        }
        if let seconds = Int(value), seconds >= 0 { return .seconds(seconds) }
        guard let date = HTTPDate.parse(value) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSince(now) * 1000)))
    }
}

extension RetryPolicy: PromptRetrier {
    package func retryPromptly(_ request: URLRequest, failedWith error: any Error, context: AttemptContext) -> Prompt<RetryDecision> {
        .now(.success(decision(for: request, error: error, context: context)))
    }
}
