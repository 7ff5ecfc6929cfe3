import Dispatch

extension Promise {
    /// Runs the work that `makeAttempt` starts, and starts it again after a rejection, up to
    /// `times` more times, waiting `delay` before each new attempt.
    ///
    /// The returned promise fulfils with the first attempt that fulfils, or rejects with the last
    /// attempt's error. A cancellation is never retried. Progress is the running attempt's, so it
    /// starts again from zero with each attempt. Cancelling the returned promise cancels the
    /// running attempt and starts no other. A negative `times` counts as zero.
    ///
    /// ```swift
    /// let orders = Promise.retry(times: 2, delay: .milliseconds(500)) { client.send(findOrders) }
    /// ```
    public static func retry(
        times: Int,
        delay: Duration = .zero,
        _ makeAttempt: @escaping @Sendable () -> Promise<Value>
    ) -> Promise<Value> {
        let outcome = Promise(upstream: nil)
        outcome.attempt(makeAttempt, retriesLeft: max(0, times), delay: delay)
        return outcome
    }

    private func attempt(
        _ makeAttempt: @escaping @Sendable () -> Promise<Value>,
        retriesLeft: Int,
        delay: Duration
    ) {
        guard isPending else { return }
        let current = makeAttempt()
        wait(for: current)
        current.subscribe { event in
            guard case .settled(.rejected(let error)) = event,
                  retriesLeft > 0, !error.isCancellation, self.isPending
            else { return self.relay(event) }
            self.wait(for: DelayedStep(after: delay) {
                self.attempt(makeAttempt, retriesLeft: retriesLeft - 1, delay: delay)
            })
        }
    }

    /// Returns a promise that settles as this one does, unless `limit` passes first: then it
    /// rejects with ``PromiseError/timedOut(after:)`` and this promise is cancelled.
    public func timeout(after limit: Duration) -> Promise<Value> {
        let limited = Promise(upstream: self)
        subscribe { event in limited.relay(event) }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit.dispatchInterval) { [weak limited] in
            limited?.cancel(with: PromiseError.timedOut(after: limit))
        }
        return limited
    }
}
