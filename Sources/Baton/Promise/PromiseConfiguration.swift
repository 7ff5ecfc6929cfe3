import Synchronization

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
///   so nothing the handlers capture outlives the work.
/// - Handlers run without any of Baton's locks held, on the thread that called
///   ``Promise/pause()``, ``Promise/resume()`` or ``Promise/cancel()``.
public final class PromiseConfiguration: Sendable {
    private struct Handlers {
        var pause: (@Sendable () -> Void)?
        var resume: (@Sendable () -> Void)?
        var cancel: (@Sendable () -> Void)?
        var wasCancelled = false
        var isFinished = false
    }

    private let handlers = Mutex(Handlers())

    @usableFromInline init() {}

    /// Runs when the promise is paused while pending.
    public var pause: (@Sendable () -> Void)? {
        get { handlers.withLock(annotating: self) { $0.pause } }
        set { handlers.withLock(annotating: self) { if !$0.isFinished { $0.pause = newValue } } }
    }

    /// Runs when a paused promise is resumed.
    public var resume: (@Sendable () -> Void)? {
        get { handlers.withLock(annotating: self) { $0.resume } }
        set { handlers.withLock(annotating: self) { if !$0.isFinished { $0.resume = newValue } } }
    }

    /// Runs once when the promise is cancelled while pending. Set after the cancellation, it runs
    /// at once.
    public var cancel: (@Sendable () -> Void)? {
        get { handlers.withLock(annotating: self) { $0.cancel } }
        set {
            let runNow: (@Sendable () -> Void)? = handlers.withLock(annotating: self) { state in
                if state.wasCancelled { return newValue }
                if !state.isFinished { state.cancel = newValue }
                return nil
            }
            runNow?()
        }
    }
}

extension PromiseConfiguration: PromiseControl {
    @usableFromInline func cancelStep() -> (any PromiseControl)? {
        let handler: (@Sendable () -> Void)? = handlers.withLock(annotating: self) { state in
            guard !state.isFinished else { return nil }
            let handler = state.cancel
            state = Handlers(wasCancelled: true, isFinished: true)
            return handler
        }
        handler?()
        return nil
    }

    @usableFromInline func pauseStep() -> (any PromiseControl)? {
        handlers.withLock(annotating: self) { $0.pause }?()
        return nil
    }

    @usableFromInline func resumeStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        handlers.withLock(annotating: self) { $0.resume }?()
        return nil
    }

    @usableFromInline func release() {
        handlers.withLock(annotating: self) { state in
            if !state.isFinished { state = Handlers(isFinished: true) }
        }
    }
}

/// What a pending promise reaches when it is cancelled, paused or resumed: the configuration of the
/// work it runs, the upstream promise whose step is running for it, or a combinator's inputs.
///
/// Each link acts on itself only and returns the link it waits for; ``cancelWork()``,
/// ``pauseWork()`` and ``resumeWork()`` walk the chain in a loop, so that cancelling the last
/// promise of a chain of any length never deepens the stack.
@usableFromInline
protocol PromiseControl: AnyObject, Sendable {
    /// Cancels this link; returns the link upstream of it, if that must be cancelled too.
    func cancelStep() -> (any PromiseControl)?
    /// Pauses this link; returns the link upstream of it, if that must be paused too.
    func pauseStep() -> (any PromiseControl)?
    /// Resumes this link; returns the link upstream of it, if that must be resumed too. A promise
    /// with progress held back while paused adds itself to `deliveries`, to be delivered once
    /// every link, the work's resume handler included, has resumed.
    func resumeStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)?
    /// The downstream promise settled without cancelling: let go of anything held for the work.
    func release()
}

extension PromiseControl {
    /// Cancels this link and every link it waits for.
    @usableFromInline
    func cancelWork() {
        var link: (any PromiseControl)? = self
        while let current = link { link = current.cancelStep() }
    }

    /// Pauses this link and every link it waits for.
    @usableFromInline
    func pauseWork() {
        var link: (any PromiseControl)? = self
        while let current = link { link = current.pauseStep() }
    }

    /// Resumes this link and every link it waits for, then delivers the progress they held back,
    /// upstream first.
    @usableFromInline
    func resumeWork() {
        var deliveries: [any Deliverable] = []
        var link: (any PromiseControl)? = self
        while let current = link { link = current.resumeStep(deferring: &deliveries) }
        for promise in deliveries.reversed() { DeliveryQueue.schedule(promise) }
    }
}
