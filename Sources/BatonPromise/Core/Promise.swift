import Dispatch
import BatonSupport

/// A value that work will produce later, with progress on the way, that can be chained, paused,
/// resumed and cancelled.
///
/// ```swift
/// client.send(Orders.find(name: "山田"))
///     .success { orders in client.send(Reviews.post(facilityID: orders[0].id, content: "良い", rating: 5)) }
///     .success { review in uploadPhotos(of: review) }
///     .progress { print("\($0)") }
///     .failure { error, isCancelled in report(error) }
/// ```
///
/// ## Shape
/// `Promise<Value>` is generic over its value only.
/// - Progress is one concrete type, ``PromiseProgress`` (units done of a total). Every step of an
///   HTTP chain reports the same kind of thing, so one type lets a step's progress reach a chained
///   promise of a different value type, and lets combinators add progress up, with no conversions.
/// - Failures are `any Error`, not a typed error: a chain mixes transport errors, decoding errors
///   and whatever its handlers throw, and a typed failure would force a mapping at every step.
///   Match the error you care about with `as?` or `catch let error as APIError`.
///
/// ## States and settling
/// A promise is pending (``PromiseState/running`` or ``PromiseState/paused``) until it settles as
/// fulfilled, rejected or cancelled. It settles exactly once: a later fulfil, reject or
/// cancel is ignored, and progress reported after settling is dropped. Rejecting with Swift's
/// `CancellationError`, or with an error that marks itself as one (the client's `APIError` of
/// kind `cancelled`), counts as a cancellation.
///
/// ## Handlers
/// ``progress(on:_:)``, ``then(on:_:)-(_,(Result<Value,Error>)->U)``, ``success(on:_:)-(_,(Value)->U)``,
/// ``failure(on:_:)``, ``recover(on:_:)-(_,(Error,Bool)->Value)`` and ``always(on:_:)`` register
/// handlers. Guarantees:
/// - Every handler runs exactly once on settlement, also when added after the promise settled.
/// - Handlers of one promise run one at a time, in the order they were added; progress handlers
///   never run after the settlement handlers have started.
/// - Progress is a "latest value" stream: while handlers are busy or the promise is paused, only
///   the newest progress is kept and delivered next. Progress reported before any handler was
///   added is kept the same way and handed to the first handlers added, before the settlement
///   if the promise settled meanwhile.
/// - No user handler ever runs while a lock of Baton's is held, so handlers may call back into any
///   promise freely.
///
/// ## Where handlers run
/// Without a queue, a handler runs synchronously on the thread that settles the promise (the one
/// calling `fulfill`, `reject` or ``cancel()``); a handler added to a promise that has already
/// settled runs on the thread that adds it, before the registering call returns. Two exceptions
/// keep order and the stack bounded: if that promise's handlers are being delivered right then,
/// it runs on the delivering thread after the ones added before it; and if it is added from
/// inside a handler nested deeper than the delivery loop allows (see "Deliveries caused by a
/// delivery" below), it runs on the same thread once the outermost delivery gets to it, before
/// that outermost fulfil, reject, cancel or registration returns. Pass `on: queue` to run a
/// handler asynchronously on a `DispatchQueue` instead; use a serial queue if progress must
/// arrive in order.
///
/// Deliveries caused by a delivery (a chained step settling the next promise) nest as plain
/// calls up to a fixed depth and are queued beyond it, on the same thread, and run in a loop, so
/// a chain of any length settles without deepening the stack beyond that bound. Cancelling,
/// pausing or resuming walks a chain in a loop too.
/// A consequence: a handler must not block waiting for another promise that its own thread is
/// about to settle.
///
/// ## Cancellation, pause and resume
/// ``cancel()``, ``pause()`` and ``resume()`` on any promise of a chain travel upstream to the step
/// that is running. A promise made with ``init(_:)`` runs its ``PromiseConfiguration`` handlers;
/// a chained promise forwards the call to the promise whose step it waits for. Because the call
/// travels upstream, a promise shared by several chains is cancelled for all of them.
///
/// ## Lifetime
/// A pending promise stays alive as long as its work can still settle it: the fulfil and reject
/// callbacks own it, whether or not anyone else does. Dropping your last reference never cancels
/// it. If the work releases both callbacks without calling either, the promise rejects with
/// ``PromiseError/abandoned`` rather than leaving its handlers waiting forever. Once a chain
/// has settled and nothing else refers to it, every promise and handler in it is freed.
public final class Promise<Value: Sendable>: Sendable {
    // The hot paths are `@inlinable` (as in swift-nio's EventLoopFuture) so that callers' code
    // is specialised for the concrete value type; see also ``PromiseCore``.
    @usableFromInline
    package let core: Lock<PromiseCore>

    /// Creates a promise and starts its work at once, on the calling thread.
    ///
    /// `work` receives four things: `progress` to report how far it has come, `fulfill` and `reject`
    /// to settle the promise, and `configure` to register pause, resume and cancel handlers (see
    /// ``PromiseConfiguration``). Any of them may be called from any thread, any number of times;
    /// only the first fulfil or reject counts. An error thrown by `work` rejects the promise.
    ///
    /// ```swift
    /// func findOrders(named name: String) -> Promise<[Order]> {
    ///     Promise { progress, fulfill, reject, configure in
    ///         let request = legacyAPI.get("order_search", ["name": name]) { result in
    ///             switch result {
    ///             case .success(let orders): fulfill(orders)
    ///             case .failure(let error): reject(error)
    ///             }
    ///         }
    ///         configure.cancel = { request.cancel() }
    ///     }
    /// }
    /// ```
    @inlinable
    public init(
        _ work: (
            _ progress: @escaping @Sendable (PromiseProgress) -> Void,
            _ fulfill: @escaping @Sendable (Value) -> Void,
            _ reject: @escaping @Sendable (any Error) -> Void,
            _ configure: PromiseConfiguration
        ) throws -> Void
    ) {
        let configuration = PromiseConfiguration()
        core = Lock(PromiseCore(upstream: configuration))
        let settler = Settler(self)
        do {
            try work(
                // Not through the settler: holding only `progress`, work cannot settle the promise.
                { [promise = self] in promise.report($0) },
                { settler.promise.fulfil($0) },
                { settler.promise.settle(.rejected($0)) },
                configuration
            )
        } catch {
            settle(.rejected(error))
        }
    }

    /// Creates a promise already fulfilled with `value`.
    @inlinable
    public init(value: Value) {
        core = Lock(PromiseCore(outcome: Self.outcome(for: value)))
    }

    /// Creates a promise already rejected with `error` (cancelled, if `error` is a
    /// `CancellationError`).
    @inlinable
    public init(error: any Error) {
        core = Lock(PromiseCore(outcome: .rejected(error)))
    }

    /// Creates a pending promise settled by the library's own code (a chained step, a combinator).
    @inlinable
    package init(upstream: (any PromiseControl)?) {
        core = Lock(PromiseCore(upstream: upstream))
    }

    // MARK: - Reading the state

    /// The promise's current state.
    public var state: PromiseState {
        core.withLock(annotating: self) { core in
            switch core.outcome {
            case nil: return core.isPaused ? .paused : .running
            case .fulfilled?, .fulfilledInPlace?: return .fulfilled
            case .rejected(let error)?: return error.isCancellation ? .cancelled : .rejected
            }
        }
    }

    /// The outcome once settled, `nil` while pending. A promise cancelled by ``cancel()`` has the
    /// outcome `.failure(CancellationError())`; one that the transport reported cancelled on its
    /// own has `.failure(APIError.cancelled)`; both are in the ``PromiseState/cancelled`` state.
    @inlinable
    public var result: Result<Value, any Error>? {
        core.withLock(annotating: self) { $0.outcome }.map(Self.result(of:))
    }

    // MARK: - Controlling the work

    /// Cancels the work this promise stands for.
    ///
    /// If the promise is still pending, it settles as cancelled, the cancel handler of the running
    /// step runs exactly once, and `failure` handlers receive `isCancelled == true`. Steps chained
    /// after it never start. Calling `cancel()` on a settled promise does nothing.
    ///
    /// - Note: Cancellation travels upstream to the step that is running: cancelling the last
    ///   promise of `find.success(post).success(upload)` while `post` runs cancels the request `post`
    ///   sent, and `upload` never starts.
    public func cancel() {
        cancelWork()
    }

    /// Settles with `error` if pending, then cancels the step it waits for (with
    /// `CancellationError`): what timeouts use. Returns whether this call settled the promise.
    @discardableResult
    package func cancel(with error: any Error) -> Bool {
        var deliveries: [any Deliverable] = []
        guard let upstream = settleAsCancelled(with: error, deferring: &deliveries) else { return false }
        upstream?.cancelWork()
        for promise in deliveries { DeliveryQueue.schedule(promise) }
        return true
    }

    /// Cancels this promise alone; ``PromiseControl/cancelWork()`` goes on with the returned
    /// upstream link, then delivers.
    @usableFromInline
    package func cancelStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        settleAsCancelled(with: CancellationError(), deferring: &deliveries) ?? nil
    }

    /// The one cancellation path: settles with `error`, leaving the delivery to the caller once
    /// the links upstream are cancelled; returns the link this promise waited for (`.some(nil)`
    /// if none), or `nil` if it had already settled.
    private func settleAsCancelled(with error: any Error, deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)?? {
        guard let action = core.withLock(annotating: self, { $0.settle(.rejected(error)) }) else { return nil }
        if action.deliver { deliveries.append(self) }
        return .some(action.upstream)
    }

    /// Asks the running step to pause. While paused, the promise holds back progress (keeping only
    /// the newest value, delivered on ``resume()``); a fulfil or reject still settles it at once.
    /// Does nothing once the promise has settled.
    public func pause() {
        pauseWork()
    }

    /// Pauses this promise and returns the link it waits for, paused or not: the work's
    /// configuration runs its handler only when the state changes, so walking on is harmless,
    /// and it means a pause always reaches the running step.
    @usableFromInline
    package func pauseStep() -> (any PromiseControl)? {
        core.withLock(annotating: self) { core in
            guard core.outcome == nil else { return nil }
            core.isPaused = true
            return core.upstream
        }
    }

    /// Resumes a paused promise: the running step's resume handler runs, then the newest progress
    /// held back while paused is delivered. Does nothing once the promise has settled; the work's
    /// resume handler runs only if the work was paused.
    public func resume() {
        resumeWork()
    }

    @usableFromInline
    package func resumeStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        let action: (upstream: (any PromiseControl)?, deliver: Bool)? = core.withLock(annotating: self) { core in
            guard core.outcome == nil else { return nil }
            let wasPaused = core.isPaused
            core.isPaused = false
            return (core.upstream, wasPaused && core.progressWaiting && core.beginDelivery())
        }
        guard let action else { return nil }
        if action.deliver { deliveries.append(self) }
        return action.upstream
    }
}

extension Promise: Deliverable {
    /// Delivers held progress, then the settlement, to the handlers, until nothing is outstanding.
    /// Only one thread delivers for a promise at a time (`isDelivering`), which is what keeps a
    /// promise's handlers in order and never concurrent with each other.
    @inlinable
    package func deliver() {
        while let (event, handlers) = core.withLock(annotating: self, { $0.nextDelivery() }) {
            handlers.forEach { $0(event) }
        }
    }
}

extension Promise: PromiseControl {
    @usableFromInline package func release() {}
}

extension Promise: CustomStringConvertible {
    /// The value type and state, as in `Promise<Order>(running)`.
    public var description: String { "Promise<\(Value.self)>(\(state))" }
}

/// Owns a promise for as long as its work holds the fulfil and reject callbacks; when the work lets
/// them all go, rejects the promise as abandoned (a no-op if it already settled).
@usableFromInline
package final class Settler<Value: Sendable>: Sendable {
    @usableFromInline package let promise: Promise<Value>
    @inlinable package init(_ promise: Promise<Value>) { self.promise = promise }
    deinit {
        // Checked first so that the usual case, work that settled, does not box an error.
        if promise.isPending { promise.settle(.rejected(PromiseError.abandoned)) }
    }
}
