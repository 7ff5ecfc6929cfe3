/// Why an attempt is retried: each cause has a retry count of its own.
///
/// Counting per cause keeps one kind of retry from using up another's budget: a request replayed
/// after its access token was refreshed still has every retry ``RetryPolicy`` allows for a
/// transient failure. ``AttemptContext/retries(for:)`` reads the counts; ``ClientEvent/retryCause``
/// says which cause each retry had.
///
/// Define your own with a name of your choosing:
///
/// ```swift
/// extension RetryCause {
///     static let rateLimited = RetryCause("rateLimited")
/// }
/// ```
public struct RetryCause: Hashable, Sendable, CustomStringConvertible {
    /// The cause's name, as events and logs print it.
    public let name: String

    /// A cause called `name`; causes with the same name are the same cause.
    public init(_ name: String) {
        self.name = name
    }

    /// A failure a later attempt may not meet (a timeout, a 503): ``RetryPolicy``'s cause.
    public static let transientFailure = RetryCause("transientFailure")
    /// The access token had expired and the request is replayed with a fresh one:
    /// `Authenticator`'s cause.
    public static let expiredCredentials = RetryCause("expiredCredentials")
    /// A retry whose retrier named no cause.
    public static let unspecified = RetryCause("unspecified")

    /// The name, as in `transientFailure`.
    public var description: String { name }
}
