import Foundation

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
