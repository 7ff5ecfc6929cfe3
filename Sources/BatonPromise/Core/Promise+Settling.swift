import Dispatch
import BatonSupport

// The machinery chaining and the combinators build on: settling, reporting, subscribing, and
// pointing a promise at the step it waits for.
extension Promise {
    /// Fulfils the promise with `value` if it is pending.
    @inlinable
    package func fulfil(_ value: Value) {
        settle(Self.outcome(for: value))
    }

    /// Settles the promise as `result` says, if it is pending. Returns whether this call settled it.
    @inlinable @discardableResult
    package func settle(_ result: Result<Value, any Error>) -> Bool {
        switch result {
        case .success(let value): return settle(Self.outcome(for: value))
        case .failure(let error): return settle(.rejected(error))
        }
    }

    /// Settles the promise if it is pending. Returns whether this call settled it.
    @inlinable @discardableResult
    package func settle(_ outcome: PromiseOutcome) -> Bool {
        guard let action = core.withLock(annotating: self, { $0.settle(outcome) }) else { return false }
        action.upstream?.release()
        if action.deliver { DeliveryQueue.schedule(self) }
        return true
    }

    /// Reports progress if pending; dropped once settled. With `onlyForward`, a report that
    /// does not advance past the latest accepted one is dropped too: for sources on several
    /// threads, such as the inputs of a combinator, whose reports may arrive out of order.
    @inlinable
    package func report(_ progress: PromiseProgress, onlyForward: Bool = false) {
        let deliver: Bool = core.withLock(annotating: self) { core in
            guard core.outcome == nil else { return false }
            if onlyForward {
                guard progress.completed > core.progressFloor else { return false }
                core.progressFloor = progress.completed
            }
            core.latestProgress = progress
            core.progressWaiting = true
            return !core.isPaused && core.beginDelivery()
        }
        if deliver { DeliveryQueue.schedule(self) }
    }

    /// Adds a handler; runs it (through the delivery loop) if the promise has already settled.
    @inlinable
    package func subscribe(_ handler: @escaping PromiseHandler) {
        let deliver: Bool = core.withLock(annotating: self) { core in
            core.handlers.append(handler)
            let hasEvent = core.outcome != nil || (core.progressWaiting && !core.isPaused)
            return hasEvent && core.beginDelivery()
        }
        if deliver { DeliveryQueue.schedule(self) }
    }

    /// Adds a handler for the settlement alone, for the library's own observers of a promise
    /// (a call's report to its monitors, a temporary file's removal). Progress held for the first
    /// handlers is not handed to it: it stays for the caller's own `progress` handler, however
    /// late that one is added.
    @inlinable
    package func observeSettlement(_ handler: @escaping PromiseHandler) {
        let deliver: Bool = core.withLock(annotating: self) { core in
            core.handlers.append(handler, takesProgress: false)
            return core.outcome != nil && core.beginDelivery()
        }
        if deliver { DeliveryQueue.schedule(self) }
    }

    /// Adds a handler that runs on `queue` when one is given, on the delivering thread otherwise.
    @inlinable
    package func subscribe(on queue: DispatchQueue?, _ handler: @escaping PromiseHandler) {
        guard let queue else { return subscribe(handler) }
        subscribe { event in queue.async { handler(event) } }
    }

    /// Points cancel, pause and resume at `upstream` (the promise this one now waits for). If this
    /// promise was cancelled meanwhile, cancels `upstream` instead; if it is paused, pauses it.
    @inlinable
    package func wait(for upstream: any PromiseControl) {
        let state: (isSettled: Bool, isPaused: Bool) = core.withLock(annotating: self) { core in
            guard core.outcome == nil else { return (true, false) }
            core.upstream = upstream
            return (false, core.isPaused)
        }
        // Only cancel(), or a timeout, settles a promise while it waits for its step.
        if state.isSettled {
            upstream.cancelWork()
        } else if state.isPaused {
            upstream.pauseWork()
            // A resume that came in between found the old upstream: bring the new one along.
            if !core.withLock(annotating: self, { $0.isPaused }) { upstream.resumeWork() }
        }
    }

    @inlinable
    package var isPending: Bool { core.withLock(annotating: self) { $0.outcome == nil } }

    /// The outcome that fulfils a promise with `value`: in place when `Value` is trivially
    /// copyable (no references to count, so its bytes are the value) and fits, boxed otherwise.
    /// The conditions are constant for a specialised `Value`, so only one branch is compiled.
    @inlinable
    package static func outcome(for value: Value) -> PromiseOutcome {
        if _isPOD(Value.self), MemoryLayout<Value>.size <= MemoryLayout<InPlaceValue>.size,
           MemoryLayout<Value>.alignment <= MemoryLayout<InPlaceValue>.alignment {
            var storage = InPlaceValue()
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: value, as: Value.self) }
            return .fulfilledInPlace(storage)
        }
        return .fulfilled(ValueBox(value))
    }

    /// The typed result an outcome of this promise stands for.
    @inlinable
    package static func result(of outcome: PromiseOutcome) -> Result<Value, any Error> {
        switch outcome {
        case .fulfilled(let box): return .success(unsafeDowncast(box, to: ValueBox<Value>.self).value)
        case .fulfilledInPlace(let storage): return .success(withUnsafeBytes(of: storage) { $0.load(as: Value.self) })
        case .rejected(let error): return .failure(error)
        }
    }
}
