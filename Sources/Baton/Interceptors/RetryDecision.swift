/// A retrier's answer.
public enum RetryDecision: Sendable, Equatable {
    /// Fail the call with the attempt's error.
    case doNotRetry
    /// Start a new attempt after `delay`.
    case retry(after: Duration)
}
