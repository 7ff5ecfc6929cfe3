import Foundation

/// Errors that Baton's promise machinery itself produces. Errors of the work a promise stands for
/// (an HTTP failure, a decoding error, an error thrown by a handler) reach handlers unchanged.
///
/// Cancellation is not one of these: a cancelled promise fails with Swift's `CancellationError`, so
/// that `try await promise.value` throws what Swift concurrency code already expects.
public enum PromiseError: Error, Sendable, CustomStringConvertible {
    /// The work released its fulfil and reject callbacks without calling either, so nothing could
    /// ever settle the promise. Reported instead of leaving every handler waiting forever.
    case abandoned
    /// ``Promise/timeout(after:)`` fired before the promise settled; the promise was cancelled.
    case timedOut(after: Duration)
    /// Every input of ``Promise/any(_:)`` was rejected; the errors are in input order.
    case allRejected([any Error])
    /// ``Promise/race(_:)`` was given no promises, so there is nothing that could settle it.
    case noPromises

    /// A sentence saying what happened, as in `race was given no promises, so nothing could ever settle it.`
    public var description: String {
        switch self {
        case .abandoned:
            return "The promise's work released its fulfil and reject callbacks without settling it."
        case .timedOut(let limit):
            return "The promise did not settle within \(limit); it was cancelled."
        case .allRejected(let errors):
            let list = errors.map { String(describing: $0) }.joined(separator: "; ")
            return "Every one of the \(errors.count) promises was rejected: \(list)"
        case .noPromises:
            return "race was given no promises, so nothing could ever settle it."
        }
    }
}

// `localizedDescription` (and so any UI or log that shows it) is the sentence, rather than
// Foundation's "The operation could not be completed. (Baton.PromiseError error 2.)".
extension PromiseError: LocalizedError {
    /// The error's sentence: see ``description``.
    public var errorDescription: String? { description }
}
