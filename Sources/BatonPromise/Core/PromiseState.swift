/// Where a promise is in its life. A promise starts ``running``, may move between ``running`` and
/// ``paused`` any number of times, and ends in exactly one of the three settled states.
public enum PromiseState: Sendable, Hashable {
    /// Pending: the work is under way.
    case running
    /// Pending: ``Promise/pause()`` was called; the work was asked to pause and progress is held
    /// back until ``Promise/resume()``. A fulfil or reject that arrives while paused still settles
    /// the promise at once.
    case paused
    /// Settled with a value.
    case fulfilled
    /// Settled with an error other than a cancellation.
    case rejected
    /// Settled by ``Promise/cancel()``, or rejected with `CancellationError` or
    /// an error that marks itself as a cancellation (the client's `APIError` of kind `cancelled`).
    case cancelled

    /// Whether the promise has not settled yet (``running`` or ``paused``).
    public var isPending: Bool { self == .running || self == .paused }
}
