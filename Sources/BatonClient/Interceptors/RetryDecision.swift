/// A retrier's decision: ``doNotRetry``, ``retry(after:cause:)`` with a delay, or
/// ``fail(with:)`` with the error the call should fail with instead.
///
/// A struct rather than an enum, so that new kinds of decision can be added without breaking a
/// retrier's code: read it through ``delay``, ``cause`` and ``error``.
public struct RetryDecision: Sendable, Equatable {
    /// How long to wait before the next attempt; `nil` for no retry.
    public let delay: Duration?
    /// Why the attempt is retried, which retry count it uses; ``RetryCause/unspecified`` when
    /// there is no retry.
    public let cause: RetryCause
    /// The error the call fails with instead of the attempt's own, for ``fail(with:)``.
    public let error: (any Error)?

    /// Leave the decision to the next retrier; if none retries, the call fails with the attempt's error.
    public static let doNotRetry = RetryDecision(delay: nil, cause: .unspecified, error: nil)

    /// Start a new attempt after `delay`, counted as a retry for `cause`.
    public static func retry(after delay: Duration, cause: RetryCause = .unspecified) -> RetryDecision {
        RetryDecision(delay: max(.zero, delay), cause: cause, error: nil)
    }

    /// Do not retry, and fail the call with `error` rather than the attempt's error: for a retrier
    /// that knows better what went wrong, such as an `Authenticator` whose token refresh failed.
    /// No later retrier is asked.
    public static func fail(with error: any Error) -> RetryDecision {
        RetryDecision(delay: nil, cause: .unspecified, error: error)
    }

    private init(delay: Duration?, cause: RetryCause, error: (any Error)?) {
        self.delay = delay
        self.cause = cause
        self.error = error
    }

    /// Whether this decision asks for another attempt.
    public var retries: Bool { delay != nil }

    /// Whether this decision settles the question, by retrying or by failing with its own error:
    /// the client asks no further retrier once one has decided.
    var decides: Bool { delay != nil || error != nil }

    /// Equal when the delays and causes are equal and both or neither replace the error (errors
    /// themselves are not comparable).
    public static func == (lhs: RetryDecision, rhs: RetryDecision) -> Bool {
        lhs.delay == rhs.delay && lhs.cause == rhs.cause && (lhs.error == nil) == (rhs.error == nil)
    }
}
