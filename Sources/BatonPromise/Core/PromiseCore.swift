/// The state of one promise, behind its lock. Not generic on purpose.
///
/// A fulfilled value waits in a ``ValueBox`` and handlers receive a ``PromiseEvent``, so nothing
/// here depends on the promise's value type. That matters for speed: code that runs without being
/// specialised for the value type (a promise's `deinit`, deliveries made through a protocol) would
/// otherwise look up the runtime metadata of generic types such as `Lock<Core<Value>>` on every
/// call, which costs more than the rest of a chained step together.
@usableFromInline
package struct PromiseCore {
    @usableFromInline package var outcome: PromiseOutcome?
    @usableFromInline package var isPaused = false
    /// Whether a thread is handing out events right now; it keeps a promise's handlers serial.
    @usableFromInline package var isDelivering = false
    /// Whether ``latestProgress`` is not yet handed out: held while paused, or while another
    /// delivery runs. Beside the other flags, where it takes no room of its own.
    @usableFromInline package var progressWaiting = false
    /// The latest progress reported. Kept once handed out, for a reader that comes late (see
    /// ``Promise/progressUpdates``).
    @usableFromInline package var latestProgress: PromiseProgress?
    /// The `completed` count of the latest progress accepted, for sources that must only go up.
    @usableFromInline package var progressFloor: Int64 = -1
    @usableFromInline package var handlers = HandlerList()
    /// What cancel, pause and resume reach while pending; `nil` once settled.
    @usableFromInline package var upstream: (any PromiseControl)?

    @inlinable
    package init(outcome: PromiseOutcome? = nil, upstream: (any PromiseControl)? = nil) {
        self.outcome = outcome
        self.upstream = upstream
    }

    /// Claims the right to deliver; `false` if another thread is delivering (it will pick up
    /// whatever was just recorded).
    @inlinable
    package mutating func beginDelivery() -> Bool {
        if isDelivering { return false }
        isDelivering = true
        return true
    }

    /// Records `outcome` if pending. Returns `nil` if already settled, else what was waiting for
    /// the promise and whether the caller must deliver.
    @inlinable
    package mutating func settle(_ outcome: PromiseOutcome) -> (upstream: (any PromiseControl)?, deliver: Bool)? {
        guard self.outcome == nil else { return nil }
        self.outcome = outcome
        // Progress nobody took yet stays held for the first handlers, which get it before the
        // settlement: work that finished before anyone subscribed (a fast transfer) still tells
        // how far it came.
        let upstream = self.upstream
        self.upstream = nil
        return (upstream, beginDelivery())
    }

    /// The next batch of events to hand out, or `nil` (and delivery ends) when none is waiting.
    @inlinable
    package mutating func nextDelivery() -> (PromiseEvent, HandlerList)? {
        // Progress with no handler to take it stays held, for the first handlers added.
        if progressWaiting, let progress = latestProgress, handlers.takesProgress, !isPaused || outcome != nil {
            progressWaiting = false
            return (.progress(progress), handlers)
        }
        if let outcome, !handlers.isEmpty {
            let batch = handlers
            handlers = HandlerList()
            return (.settled(outcome), batch)
        }
        isDelivering = false
        return nil
    }
}

/// How a promise settled. A fulfilled value sits in a ``ValueBox`` of the promise's value type,
/// or, when it is small and trivially copyable (`Void`, `Bool`, `Int`, a small struct of
/// numbers), in place, which spares an allocation per promise (see `Promise.outcome(for:)`).
@usableFromInline
package enum PromiseOutcome: Sendable {
    case fulfilled(AnyObject & Sendable)
    case fulfilledInPlace(InPlaceValue)
    case rejected(any Error)

    @inlinable
    package var isCancellation: Bool {
        if case .rejected(let error) = self { return error.isCancellation }
        return false
    }
}

/// Sixteen bytes of storage for a small trivially-copyable value.
@usableFromInline
package struct InPlaceValue: Sendable {
    @usableFromInline package var low: UInt64 = 0
    @usableFromInline package var high: UInt64 = 0
    @inlinable package init() {}
}

/// What a handler receives.
@usableFromInline
package enum PromiseEvent: Sendable {
    case progress(PromiseProgress)
    case settled(PromiseOutcome)
}

/// A fulfilled value, boxed so that ``PromiseCore`` need not be generic.
@usableFromInline
package final class ValueBox<Value: Sendable>: Sendable {
    @usableFromInline package let value: Value
    @inlinable package init(_ value: Value) { self.value = value }
}
