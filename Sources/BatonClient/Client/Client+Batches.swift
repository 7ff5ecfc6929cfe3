import BatonSupport
import BatonPromise

extension Client {
    /// Sends every endpoint, at most `concurrency` at a time, in order, and fulfils with each one's
    /// outcome, in the same order, once all have ended. It never rejects because a call failed:
    /// the failed ones are in the outcomes, with their endpoints, to be sent again later.
    ///
    /// Progress is the bytes sent of all the calls together (their bodies' lengths known up front
    /// where they can be: data, files, forms), so one bar follows the whole batch; its first
    /// report, before any byte is sent, is zero of that total. Cancelling the
    /// promise cancels every call running and starts no other.
    ///
    /// ```swift
    /// client.send(Reviews.post(facilityID: 1, content: "良い", rating: 5))
    ///     .success { review in client.sendEach(photos.map { Photos.upload($0, to: review.id) }) }
    ///     .progress { bar.update($0) }
    ///     .success { outcomes in retryLater(outcomes.filter { $0.error != nil }.map(\.endpoint)) }
    ///     .failure { error, _ in report(error) }   // the review post; photos never reject
    /// ```
    ///
    /// - Parameters:
    ///   - endpoints: The calls, in the order their outcomes come back.
    ///   - concurrency: How many calls run at once; at least 1. Default 3.
    public func sendEach<E: Endpoint>(_ endpoints: [E], concurrency: Int = 3) -> Promise<[SendOutcome<E>]> {
        guard !endpoints.isEmpty else { return Promise(value: []) }
        let batch = Batch(client: self, endpoints: endpoints, concurrency: max(1, concurrency), failsFast: false)
        batch.start()
        return batch.promise
    }

    /// Sends every endpoint, at most `concurrency` at a time, in order, and fulfils with their
    /// responses, in the same order, once all have succeeded. The first call to fail rejects the
    /// promise with its error; the calls running are cancelled and no other starts, so one
    /// `failure` handler covers the whole batch. Calls that succeeded before it stay done.
    ///
    /// Progress is as ``sendEach(_:concurrency:)``'s: the bytes sent of all the calls together,
    /// their total known from the first report when every body's length is (data, files, forms),
    /// so one bar follows the whole batch. Cancelling the promise cancels every call running and
    /// starts no other.
    ///
    /// ```swift
    /// client.send(Reviews.post(facilityID: 1, content: "良い", rating: 5))
    ///     .success { review in client.sendAll(photos.map { Photos.upload($0, to: review.id) }) }
    ///     .progress(everyFraction: 0.1) { print($0) }
    ///     .success { uploaded in print("\(uploaded.count) photos") }
    ///     .failure { error, _ in report(error) }   // the review post, or the first photo to fail
    /// ```
    ///
    /// Use ``sendEach(_:concurrency:)`` instead when each call's outcome matters on its own, to
    /// send the failed ones again later. `Promise.all(_:)` also fails fast, but knows the
    /// total only once every call has reported one.
    ///
    /// - Parameters:
    ///   - endpoints: The calls, in the order their responses come back.
    ///   - concurrency: How many calls run at once; at least 1. Default 3.
    public func sendAll<E: Endpoint>(_ endpoints: [E], concurrency: Int = 3) -> Promise<[E.Response]> {
        guard !endpoints.isEmpty else { return Promise(value: []) }
        let batch = Batch(client: self, endpoints: endpoints, concurrency: max(1, concurrency), failsFast: true)
        batch.start()
        // Every outcome is a success here: the batch rejected at the first that was not.
        return batch.promise.success { outcomes in try outcomes.map { try $0.result.get() } }
    }
}

/// One ``Client/sendEach(_:concurrency:)`` or ``Client/sendAll(_:concurrency:)``: the calls
/// waiting, running and done. Failing fast, the first failure rejects the batch and cancels the rest.
private final class Batch<E: Endpoint>: PromiseControl {
    let promise = Promise<[SendOutcome<E>]>(upstream: nil)
    private let client: Client
    private let endpoints: [E]
    private let concurrency: Int
    private let failsFast: Bool
    private let state: Lock<State>

    private struct State {
        var next = 0
        var running: [Int: Promise<E.Response>] = [:]
        var outcomes: [SendOutcome<E>?]
        var done = 0
        var cancelled = false
        var bytes: ProgressSum
    }

    init(client: Client, endpoints: [E], concurrency: Int, failsFast: Bool) {
        self.client = client
        self.failsFast = failsFast
        self.endpoints = endpoints
        self.concurrency = concurrency
        var bytes = ProgressSum(count: endpoints.count)
        // Bodies whose length is known up front make the batch's total known from the start.
        for (index, endpoint) in endpoints.enumerated() {
            if let length = endpoint.body.knownLength {
                _ = bytes.record(PromiseProgress(completed: 0, total: length, kind: .bytesSent), at: index)
            }
        }
        state = Lock(State(outcomes: Array(repeating: nil, count: endpoints.count), bytes: bytes))
        promise.wait(for: self)
    }

    func start() {
        // A bar can show the batch's size before the first byte goes.
        if let initial = state.withLock(annotating: self, { $0.bytes.current }) { promise.report(initial) }
        for _ in 0..<min(concurrency, endpoints.count) { launchNext() }
    }

    /// Sends the next endpoint waiting, if any and not cancelled.
    private func launchNext() {
        let index: Int? = state.withLock(annotating: self) { state in
            guard !state.cancelled, state.next < endpoints.count else { return nil }
            defer { state.next += 1 }
            return state.next
        }
        guard let index else { return }
        let call = client.send(endpoints[index])
        let cancelled: Bool = state.withLock(annotating: self) { state in
            if !state.cancelled { state.running[index] = call }
            return state.cancelled
        }
        if cancelled { return call.cancel() }
        call.subscribe { [self] event in
            switch event {
            case .progress(let progress):
                if let sum = state.withLock(annotating: self, { $0.bytes.record(progress, at: index) }) {
                    promise.report(sum, onlyForward: true)
                }
            case .settled(let outcome):
                finished(index, Promise<E.Response>.result(of: outcome))
            }
        }
    }

    private func finished(_ index: Int, _ result: Result<E.Response, any Error>) {
        if failsFast, case .failure(let error) = result {
            // The first failure is the batch's: the calls still running are no longer needed.
            let running: [Promise<E.Response>] = state.withLock(annotating: self) { state in
                state.running[index] = nil
                guard !state.cancelled else { return [] }
                state.cancelled = true
                return Array(state.running.values)
            }
            if promise.settle(.failure(error)) { for call in running { call.cancel() } }
            return
        }
        let (progress, outcomes): (PromiseProgress?, [SendOutcome<E>]?) = state.withLock(annotating: self) { state in
            state.running[index] = nil
            state.outcomes[index] = SendOutcome(endpoint: endpoints[index], result: result)
            state.done += 1
            let progress = state.bytes.complete(at: index)
            return (progress, state.done == endpoints.count ? state.outcomes.compactMap { $0 } : nil)
        }
        if let progress { promise.report(progress, onlyForward: true) }
        if let outcomes { return promise.fulfil(outcomes) }
        launchNext()
    }

    // MARK: What the promise reaches

    func cancelStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        let running = state.withLock(annotating: self) { state in
            state.cancelled = true
            return Array(state.running.values)
        }
        for call in running { call.cancel() }
        return nil
    }

    func pauseStep() -> (any PromiseControl)? {
        for call in state.withLock(annotating: self, { Array($0.running.values) }) { call.pause() }
        return nil
    }

    func resumeStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        for call in state.withLock(annotating: self, { Array($0.running.values) }) { call.resume() }
        return nil
    }

    func release() {}
}
