import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
