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
    @usableFromInline func cancelWork() {
        let handler: (@Sendable () -> Void)? = handlers.withLock(annotating: self) { state in
            guard !state.isFinished else { return nil }
            let handler = state.cancel
            state = Handlers(wasCancelled: true, isFinished: true)
            return handler
        }
        handler?()
    }

    @usableFromInline func pauseWork() {
        handlers.withLock(annotating: self) { $0.pause }?()
    }

    @usableFromInline func resumeWork() {
        handlers.withLock(annotating: self) { $0.resume }?()
    }

    @usableFromInline func release() {
        handlers.withLock(annotating: self) { state in
            if !state.isFinished { state = Handlers(isFinished: true) }
        }
    }
}

/// What a pending promise reaches when it is cancelled, paused or resumed: the configuration of the
/// work it runs, or the upstream promise whose step is running for it.
@usableFromInline
protocol PromiseControl: AnyObject, Sendable {
    func cancelWork()
    func pauseWork()
    func resumeWork()
    /// The downstream promise settled without cancelling: let go of anything held for the work.
    func release()
}
