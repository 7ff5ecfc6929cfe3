import BatonSupport

// Combining several promises into one. In every combinator, cancelling, pausing or resuming the
// combined promise does the same to every input that is still pending, and the inputs that are
// no longer needed once the outcome is known (the rest, after a rejection in `all`) are cancelled.

extension Promise {
    /// Fulfils with every input's value, in input order, once all have fulfilled; rejects with
    /// the first rejection and cancels the inputs still pending. Progress is the inputs' bytes
    /// added up (completed and total) when they report bytes, as uploads and downloads do (see
    /// ``PromiseProgress``); otherwise how many inputs have fulfilled, out of how many. An empty
    /// array fulfils at once with `[]`.
    ///
    /// Progress counts from the moment `all` is made: an input that had already settled, its
    /// progress taken by no handler, counts as done with no size, and the total then stays
    /// unknown. Make the inputs and combine them in one go, or, for requests, use the client's
    /// `sendAll(_:concurrency:)`, which knows every body's length before it starts.
    ///
    /// ```swift
    /// let uploaded: Promise<[Photo]> = Promise.all(photos.map { client.send(Photos.upload($0, to: review.id)) })
    /// ```
    public static func all<Element>(_ promises: [Promise<Element>]) -> Promise<[Element]>
    where Value == [Element] {
        guard !promises.isEmpty else { return Promise(value: []) }
        let group = PromiseGroup(promises)
        let combined = Promise(upstream: group)
        let gathering = Locked(Gathering<Element>(count: promises.count))
        for (index, promise) in promises.enumerated() {
            promise.subscribe { event in
                switch event {
                case .progress(let progress):
                    if let sum = gathering.withLock({ $0.report(progress, at: index) }) { combined.report(sum, onlyForward: true) }
                case .settled(let outcome):
                    switch Promise<Element>.result(of: outcome) {
                    case .success(let value):
                        let (progress, values) = gathering.withLock { $0.settle(value, at: index) }
                        combined.report(progress, onlyForward: true)
                        if let values { combined.settle(.success(values)) }
                    case .failure(let error):
                        if combined.settle(.failure(error)) { group.cancelWork() }
                    }
                }
            }
        }
        return combined
    }

    /// Fulfils with each input's outcome, in input order, once every input has settled; never
    /// rejects (it can only be cancelled, which cancels every input). Progress is the inputs'
    /// bytes added up when they report bytes, otherwise how many inputs have settled, out of how
    /// many. As in ``all(_:)``, progress counts from the moment the combined promise is made.
    public static func allSettled<Element>(
        _ promises: [Promise<Element>]
    ) -> Promise<[Result<Element, any Error>]> where Value == [Result<Element, any Error>] {
        guard !promises.isEmpty else { return Promise(value: []) }
        let combined = Promise(upstream: PromiseGroup(promises))
        let gathering = Locked(Gathering<Result<Element, any Error>>(count: promises.count))
        for (index, promise) in promises.enumerated() {
            promise.subscribe { event in
                switch event {
                case .progress(let progress):
                    if let sum = gathering.withLock({ $0.report(progress, at: index) }) { combined.report(sum, onlyForward: true) }
                case .settled(let outcome):
                    let result = Promise<Element>.result(of: outcome)
                    let (progress, outcomes) = gathering.withLock { $0.settle(result, at: index) }
                    combined.report(progress, onlyForward: true)
                    if let outcomes { combined.settle(.success(outcomes)) }
                }
            }
        }
        return combined
    }

    /// Fulfils with the first input to fulfil and cancels the others; rejects with
    /// ``PromiseError/allRejected(_:)`` (errors in input order) once every input has been
    /// rejected or cancelled. An empty array rejects at once.
    public static func any(_ promises: [Promise<Value>]) -> Promise<Value> {
        guard !promises.isEmpty else { return Promise(error: PromiseError.allRejected([])) }
        let group = PromiseGroup(promises)
        let combined = Promise(upstream: group)
        let tally = Locked(Tally<any Error>(count: promises.count))
        for (index, promise) in promises.enumerated() {
            promise.subscribe { event in
                guard case .settled(let outcome) = event else { return }
                switch outcome {
                case .fulfilled, .fulfilledInPlace:
                    if combined.settle(outcome) { group.cancelWork() }
                case .rejected(let error):
                    let (_, errors) = tally.withLock { $0.record(error, at: index) }
                    if let errors { combined.settle(.failure(PromiseError.allRejected(errors))) }
                }
            }
        }
        return combined
    }

    /// Settles as the first input to settle does, fulfilled or rejected, and cancels the others.
    /// An empty array rejects at once with ``PromiseError/noPromises``.
    public static func race(_ promises: [Promise<Value>]) -> Promise<Value> {
        guard !promises.isEmpty else { return Promise(error: PromiseError.noPromises) }
        let group = PromiseGroup(promises)
        let combined = Promise(upstream: group)
        for promise in promises {
            promise.subscribe { event in
                if case .settled(let outcome) = event, combined.settle(outcome) { group.cancelWork() }
            }
        }
        return combined
    }

    /// Fulfils with both values once both inputs have fulfilled; rejects with the first rejection
    /// and cancels the other input. Reports no progress of its own.
    ///
    /// ```swift
    /// let (order, user) = try await Promise.zip(findOrder(7), findUser(1)).value
    /// ```
    public static func zip<A, B>(_ a: Promise<A>, _ b: Promise<B>) -> Promise<(A, B)>
    where Value == (A, B) {
        let group = PromiseGroup([a, b])
        let combined = Promise(upstream: group)
        let slots = Locked<(A?, B?)>((nil, nil))
        func join<T>(_ input: Promise<T>, _ store: @escaping @Sendable (inout (A?, B?), T) -> Void) {
            input.subscribe { event in
                guard case .settled(let outcome) = event else { return }
                switch Promise<T>.result(of: outcome) {
                case .success(let value):
                    let pair: (A, B)? = slots.withLock { slots in
                        store(&slots, value)
                        guard let a = slots.0, let b = slots.1 else { return nil }
                        return (a, b)
                    }
                    if let pair { combined.settle(.success(pair)) }
                case .failure(let error):
                    if combined.settle(.failure(error)) { group.cancelWork() }
                }
            }
        }
        join(a) { slots, value in slots.0 = value }
        join(b) { slots, value in slots.1 = value }
        return combined
    }

    /// ``zip(_:_:)`` of three promises of different types.
    public static func zip<A, B, C>(
        _ a: Promise<A>, _ b: Promise<B>, _ c: Promise<C>
    ) -> Promise<(A, B, C)> where Value == (A, B, C) {
        Promise<((A, B), C)>.zip(Promise<(A, B)>.zip(a, b), c).success { ($0.0.0, $0.0.1, $0.1) }
    }

    /// ``zip(_:_:)`` of four promises of different types.
    public static func zip<A, B, C, D>(
        _ a: Promise<A>, _ b: Promise<B>, _ c: Promise<C>, _ d: Promise<D>
    ) -> Promise<(A, B, C, D)> where Value == (A, B, C, D) {
        Promise<((A, B), (C, D))>.zip(Promise<(A, B)>.zip(a, b), Promise<(C, D)>.zip(c, d))
            .success { ($0.0.0, $0.0.1, $0.1.0, $0.1.1) }
    }
}
