/// An error that stands for a cancellation, as Swift's `CancellationError` does. A promise
/// rejected with such an error is in the ``PromiseState/cancelled`` state and its `failure`
/// handlers see `isCancelled == true`.
package protocol CancellationMarking: Error {
    var marksCancellation: Bool { get }
}

extension Error {
    /// Whether this error stands for a cancellation.
    @usableFromInline
    package var isCancellation: Bool {
        if self is CancellationError { return true }
        return (self as? any CancellationMarking)?.marksCancellation ?? false
    }
}
