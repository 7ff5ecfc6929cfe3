import Foundation

/// What an adapter or retrier knows about the attempt at hand.
public struct AttemptContext: Sendable {
    /// The call, as errors and events name it.
    public var request: RequestSummary
    /// 1 for the first attempt, 2 for the first retry, and so on, whatever the causes.
    public var attempt: Int
    /// The response of the failed attempt, when there was one (for retriers).
    public var response: HTTPResponse?
    /// How many retries the call has made so far, by cause: see ``retries(for:)``.
    public var retries: [RetryCause: Int]

    /// The context of attempt number `attempt` (1 for the first) of `request`, after `retries`.
    public init(
        request: RequestSummary, attempt: Int, response: HTTPResponse? = nil, retries: [RetryCause: Int] = [:]
    ) {
        self.request = request
        self.attempt = attempt
        self.response = response
        self.retries = retries
    }

    /// How many retries for `cause` the call has made before this attempt.
    public func retries(for cause: RetryCause) -> Int {
        retries[cause, default: 0]
    }
}
