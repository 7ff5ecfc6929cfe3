import Dispatch

// Handlers that observe a promise or chain a step after it. Every method takes an optional
// `queue`: without one the handler runs on the thread that settles the promise (see "Where
// handlers run" on ``Promise``). A method that returns a new promise returns one whose progress
// follows the running step: first this promise's, then that of any promise the step returns.

extension Promise {
    /// Calls `body` with each progress update of the running step, until the promise settles.
    ///
    /// Returns this same promise, so it reads inline in a chain. Updates are "latest value": one
    /// reported while an earlier one is being delivered, or while the promise is paused, may be
    /// replaced by a newer one before delivery.
    @inlinable @discardableResult
    public func progress(
        on queue: DispatchQueue? = nil,
        _ body: @escaping @Sendable (PromiseProgress) -> Void
    ) -> Promise<Value> {
        subscribe(on: queue) { event in
            if case .progress(let progress) = event { body(progress) }
        }
        return self
    }

    /// Chains a step that sees the outcome, value or error, and produces the next value.
    ///
    /// An error thrown by `body` rejects the returned promise. Runs for every outcome, a
    /// cancellation included, unless the returned promise itself was cancelled first.
    @inlinable @discardableResult
    public func then<U>(
        on queue: DispatchQueue? = nil,
        _ body: @escaping @Sendable (Result<Value, any Error>) throws -> U
    ) -> Promise<U> {
        chain(on: queue, body) { result, next, body in next.fulfil { try body(result) } }
    }

    /// Chains a step that sees the outcome, value or error, and starts the next piece of work.
    /// The returned promise settles as the promise `body` returns does, and reports its progress.
    @inlinable @discardableResult
    public func then<U>(
        on queue: DispatchQueue? = nil,
        _ body: @escaping @Sendable (Result<Value, any Error>) throws -> Promise<U>
    ) -> Promise<U> {
        chain(on: queue, body) { result, next, body in next.follow { try body(result) } }
    }

    /// Chains a step that runs only on fulfilment and transforms the value; an error, this
    /// promise's or one thrown by `body`, passes on to the returned promise without running it.
    ///
    /// ```swift
    /// let names: Promise<[String]> = orders.success { $0.map(\.name) }
    /// ```
    @inlinable @discardableResult
    public func success<U>(
        on queue: DispatchQueue? = nil,
        _ body: @escaping @Sendable (Value) throws -> U
    ) -> Promise<U> {
        chain(on: queue, body) { result, next, body in
            switch result {
            case .success(let value): next.fulfil { try body(value) }
            case .failure(let error): next.settle(.failure(error))
            }
        }
    }

    /// Chains a step that runs only on fulfilment and starts the next piece of work with the
    /// value; the returned promise settles as the promise `body` returns does and reports its
    /// progress. Errors pass on without running `body`.
    ///
    /// ```swift
    /// let order: Promise<Order> = client.send(Request(.get, "orders/7"))
/// let review: Promise<Review> = order.success { order in client.send(Reviews.post(facilityID: order.id, content: "良い", rating: 5)) }
    /// ```
    ///
    /// A step of several statements needs its type written when a one-line step that uses its
    /// value follows: Swift infers a multi-statement closure's result too late for that one.
    ///
    /// ```swift
    /// client.send(Reviews.post(facilityID: 1, content: "良い", rating: 5))
    ///     .success { review -> Promise<[Photo]> in
    ///         print(review.id)
    ///         return Promise.all(photos.map { client.send(Photos.upload($0, to: review.id)) })
    ///     }
    ///     .success { photos in photos.map(\.url) }
    /// ```
    @inlinable @discardableResult
    public func success<U>(
        on queue: DispatchQueue? = nil,
        _ body: @escaping @Sendable (Value) throws -> Promise<U>
    ) -> Promise<U> {
        chain(on: queue, body) { result, next, body in
            switch result {
            case .success(let value): next.follow { try body(value) }
            case .failure(let error): next.settle(.failure(error))
            }
        }
    }

    /// Observes a failure: `body` receives the error and whether it is a cancellation.
    ///
    /// The body runs for every failure, a cancellation included, even when the promise returned
    /// here is the one cancelled (the cancellation travels upstream and comes back as the error).
    ///
    /// The returned promise settles exactly as this one did, after `body` has run, so a single
    /// `failure` at the end of a chain sees an error from any step. To replace the error with a
    /// value or with more work, use ``recover(on:_:)-(_,(Error,Bool)->Value)``.
    ///
    /// ```swift
    /// find.success(post).success(upload)
    ///     .failure { error, isCancelled in if !isCancelled { show(error) } }
    /// ```
    @inlinable @discardableResult
    public func failure(
        on queue: DispatchQueue? = nil,
        _ body: @escaping @Sendable (_ error: any Error, _ isCancelled: Bool) -> Void
    ) -> Promise<Value> {
        chain(on: queue, body, runsWhenCancelled: true) { result, next, body in
            if case .failure(let error) = result { body(error, error.isCancellation) }
            next.settle(result)
        }
    }

    /// Recovers from a failure with a value: the returned promise fulfils with what `body`
    /// returns, or rejects with what it throws. A fulfilment passes through without running it.
    ///
    /// ```swift
    /// let orders = client.send(Orders.find(name: "")).recover { _, _ in cachedOrders }
    /// ```
    ///
    /// - Note: Recovery has its own name rather than being an overload of `failure`: overloading
    ///   `failure` on its closure's return type makes Swift reject everyday observing closures
    ///   such as `{ error, isCancelled in if !isCancelled { show(error) } }` as ambiguous.
    @inlinable
    public func recover(
        on queue: DispatchQueue? = nil,
        _ body: @escaping @Sendable (_ error: any Error, _ isCancelled: Bool) throws -> Value
    ) -> Promise<Value> {
        chain(on: queue, body) { result, next, body in
            switch result {
            case .success: next.settle(result)
            case .failure(let error): next.fulfil { try body(error, error.isCancellation) }
            }
        }
    }

    /// Recovers from a failure with more work: the returned promise settles as the promise
    /// `body` returns does. A fulfilment passes through without running it.
    ///
    /// ```swift
    /// let orders = client.send(Orders.find(name: "")).recover { error, _ in client.send(Orders.cached) }
    /// ```
    @inlinable
    public func recover(
        on queue: DispatchQueue? = nil,
        _ body: @escaping @Sendable (_ error: any Error, _ isCancelled: Bool) throws -> Promise<Value>
    ) -> Promise<Value> {
        chain(on: queue, body) { result, next, body in
            switch result {
            case .success: next.settle(result)
            case .failure(let error): next.follow { try body(error, error.isCancellation) }
            }
        }
    }

    /// Runs `body` once this promise settles, whatever the outcome (a cancellation included); the
    /// returned promise then settles exactly as this one did. For clean-up such as hiding a
    /// spinner: it runs even when the promise returned here is the one cancelled.
    @inlinable @discardableResult
    public func always(
        on queue: DispatchQueue? = nil,
        _ body: @escaping @Sendable () -> Void
    ) -> Promise<Value> {
        chain(on: queue, body, runsWhenCancelled: true) { result, next, body in
            body()
            next.settle(result)
        }
    }
}

// MARK: - The one mechanism behind every chained step

extension Promise {
    /// Makes the promise of a step chained after this one. The new promise forwards cancel,
    /// pause and resume here until the step runs, reports this promise's progress, and calls
    /// `step` with this promise's outcome and `body`. If the new promise was itself cancelled
    /// first, a step that transforms never starts; an observer (`runsWhenCancelled`, for
    /// `failure` and `always`) still runs, and sees the cancellation.
    ///
    /// `step` is a closure that captures nothing (so it costs no allocation) and `body` is the
    /// user's closure, passed alongside: one handler allocation per chained step.
    @inlinable
    package func chain<U, Body: Sendable>(
        on queue: DispatchQueue?,
        _ body: Body,
        runsWhenCancelled: Bool = false,
        _ step: @escaping @Sendable (Result<Value, any Error>, Promise<U>, Body) -> Void
    ) -> Promise<U> {
        let next = Promise<U>(upstream: self)
        subscribe(on: queue) { event in
            switch event {
            case .progress(let progress):
                next.report(progress)
            case .settled(let outcome):
                if runsWhenCancelled || next.isPending { step(Self.result(of: outcome), next, body) }
            }
        }
        return next
    }

    /// Fulfils with what `body` returns, or rejects with what it throws.
    @inlinable
    package func fulfil(from body: () throws -> Value) {
        do { fulfil(try body()) } catch { settle(.rejected(error)) }
    }

    /// Settles as the promise `body` returns does, or rejects with what `body` throws.
    @inlinable
    package func follow(_ body: () throws -> Promise<Value>) {
        do { follow(try body()) } catch { settle(.rejected(error)) }
    }

    /// Settles as `other` does and reports its progress; cancel, pause and resume now reach it.
    @inlinable
    package func follow(_ other: Promise<Value>) {
        wait(for: other)
        other.subscribe { event in self.relay(event) }
    }

    /// Takes on an event of another promise of the same type: progress is reported, a
    /// settlement settles this promise.
    @inlinable
    package func relay(_ event: PromiseEvent) {
        switch event {
        case .progress(let progress): report(progress)
        case .settled(let outcome): settle(outcome)
        }
    }
}
