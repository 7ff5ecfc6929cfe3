/// A retrier's answer: ``doNotRetry``, or ``retry(after:)`` with a delay.
///
/// A struct rather than an enum, so that new kinds of answer can be added without breaking a
/// retrier's code: read it through ``delay``.
public struct RetryDecision: Sendable, Equatable {
    /// How long to wait before the next attempt; `nil` for no retry.
    public let delay: Duration?

    /// Fail the call with the attempt's error.
    public static let doNotRetry = RetryDecision(delay: nil)

    /// Start a new attempt after `delay`.
    public static func retry(after delay: Duration) -> RetryDecision {
        RetryDecision(delay: delay)
    }

    private init(delay: Duration?) {
        self.delay = delay
    }

    /// Whether this decision asks for another attempt.
    public var retries: Bool { delay != nil }
}
