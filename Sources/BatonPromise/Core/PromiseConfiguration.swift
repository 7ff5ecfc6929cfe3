import BatonSupport

/// The object through which the work behind a promise says how to pause, resume and cancel it.
///
/// The closure given to ``Promise/init(_:)`` receives one and sets whichever handlers its work
/// supports:
///
/// ```swift
/// let download = Promise<Data> { progress, fulfill, reject, configure in
///     let transfer = startTransfer(onProgress: progress, onDone: fulfill, onError: reject)
///     configure.pause = { transfer.suspend() }
///     configure.resume = { transfer.resume() }
///     configure.cancel = { transfer.stop() }
/// }
/// ```
///
/// Guarantees:
/// - `cancel` runs at most once, and only when the promise is cancelled: never after a fulfil or
///   reject. If the promise was cancelled before the work set `cancel`, setting it runs it at once,
///   so work that registers its handler late still hears of the cancellation.
/// - Once the promise has settled, every handler is released (and later assignments are dropped),
///   so nothing the handlers capture outlives the work. Until then they are kept: handlers that
///   capture `fulfill` or `reject` keep the promise from being reported as
///   ``PromiseError/abandoned`` should the work drop its other references without settling.
/// - `pause` and `resume` alternate: each runs only when the state changes, and when pause and
///   resume are called at once from several threads, the last call decides the final state.
/// - Handlers run without any of Baton's locks held, on the thread that called
///   ``Promise/pause()``, ``Promise/resume()`` or ``Promise/cancel()``.
public final class PromiseConfiguration: Sendable {
    private struct Handlers {
        package var pause: (@Sendable () -> Void)?
        package var resume: (@Sendable () -> Void)?
        package var cancel: (@Sendable () -> Void)?
        package var wasCancelled = false
        package var isFinished = false
        /// Whether the work should be paused, whether it is, and whether a thread is running
        /// handlers to bring the second in line with the first (see `applyPauseState`).
        package var wantsPaused = false
        package var isPaused = false
        package var isApplying = false
    }

    private let handlers = Lock(Handlers())

    @usableFromInline package init() {}

    /// Runs when the promise is paused while pending.
    public var pause: (@Sendable () -> Void)? {
        get { handlers.withLock(annotating: self) { $0.pause } }
        // The replaced handler is returned, so that it is released (and anything it captures
        // deinitialised) after the lock is let go: never user code under the lock.
        set { _ = handlers.withLock(annotating: self) { state in state.isFinished ? newValue : swap(&state.pause, newValue) } }
    }

    /// Runs when a paused promise is resumed.
    public var resume: (@Sendable () -> Void)? {
        get { handlers.withLock(annotating: self) { $0.resume } }
        set { _ = handlers.withLock(annotating: self) { state in state.isFinished ? newValue : swap(&state.resume, newValue) } }
    }

    /// Runs once when the promise is cancelled while pending. Set after the cancellation, it runs
    /// at once.
    public var cancel: (@Sendable () -> Void)? {
        get { handlers.withLock(annotating: self) { $0.cancel } }
        set {
            let (runNow, replaced): ((@Sendable () -> Void)?, (@Sendable () -> Void)?) = handlers.withLock(annotating: self) { state in
                if state.wasCancelled { return (newValue, nil) }
                if state.isFinished { return (nil, newValue) }
                return (nil, swap(&state.cancel, newValue))
            }
            withExtendedLifetime(replaced) { runNow?() }
        }
    }

    /// Runs the pause or resume handler until the work's state matches the latest request. One
    /// thread at a time does it, so that concurrent pause and resume calls cannot leave the work
    /// paused while the promise reports running (or the reverse): the last request wins.
    private func applyPauseState(_ paused: Bool) {
        var claimed = handlers.withLock(annotating: self) { state -> Bool in
            state.wantsPaused = paused
            guard !state.isApplying, !state.isFinished else { return false }
            state.isApplying = true
            return true
        }
        while claimed {
            let handler: (@Sendable () -> Void)?? = handlers.withLock(annotating: self) { state in
                guard !state.isFinished, state.isPaused != state.wantsPaused else {
                    state.isApplying = false
                    return .none
                }
                state.isPaused = state.wantsPaused
                return .some(state.isPaused ? state.pause : state.resume)
            }
            guard let handler else { claimed = false; break }
            handler?()
        }
    }
}

/// Stores `value` in `slot` and returns what was there.
private func swap<T>(_ slot: inout T, _ value: T) -> T {
    let old = slot
    slot = value
    return old
}

extension PromiseConfiguration: PromiseControl {
    @usableFromInline package func cancelStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        let old: Handlers? = handlers.withLock(annotating: self) { state in
            guard !state.isFinished else { return nil }
            return swap(&state, Handlers(wasCancelled: true, isFinished: true))
        }
        old?.cancel?()
        return nil
    }

    @usableFromInline package func pauseStep() -> (any PromiseControl)? {
        applyPauseState(true)
        return nil
    }

    @usableFromInline package func resumeStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        applyPauseState(false)
        return nil
    }

    @usableFromInline package func release() {
        let old: Handlers? = handlers.withLock(annotating: self) { state in
            state.isFinished ? nil : swap(&state, Handlers(isFinished: true))
        }
        withExtendedLifetime(old) {}  // released here, after the lock
    }
}
