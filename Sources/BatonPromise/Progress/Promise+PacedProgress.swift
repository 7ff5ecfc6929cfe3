import BatonSupport
import Dispatch

// Progress handlers paced for a person: a bar redrawn a few times a second, a log line per step
// of the total. What passes is decided by ``ProgressPacer``.

extension Promise {
    /// Calls `body` with the running step's progress at most once per `interval`, until the
    /// promise settles: a bar redrawn four times a second rather than for every 64 KiB.
    ///
    /// Whatever the interval, `body` sees the first report, every change of kind or total, and
    /// the report that completes the work; a report held back is handed out as the promise
    /// settles, so the last one `body` sees is the latest. Returns this same promise.
    ///
    /// ```swift
    /// client.download(Request<Data>(.get, "files/big"), to: caches.appending(path: "big"))
    ///     .progress(every: .milliseconds(250)) { bar.update($0) }
    /// ```
    @discardableResult
    public func progress(
        on queue: DispatchQueue? = nil,
        every interval: Duration,
        _ body: @escaping @Sendable (PromiseProgress) -> Void
    ) -> Promise<Value> {
        paced(ProgressPacer(.interval(interval)), on: queue, body)
    }

    /// Calls `body` with the running step's progress each time another `step` of the total is
    /// done (`0.1`: at 10 %, 20 %, …), until the promise settles: a few lines in a log rather than
    /// hundreds. While the total is unknown (a response without a length) every report passes:
    /// pace such work with ``progress(on:every:_:)``.
    ///
    /// As with an interval, `body` sees the first report, every change of kind or total, and the
    /// report that completes the work. Returns this same promise.
    ///
    /// ```swift
    /// client.send(Photos.upload(photoURL, to: review.id))
    ///     .progress(everyFraction: 0.1) { print($0) }   // 0/3000000 bytes sent, 300000/3000000, …
    /// ```
    @discardableResult
    public func progress(
        on queue: DispatchQueue? = nil,
        everyFraction step: Double,
        _ body: @escaping @Sendable (PromiseProgress) -> Void
    ) -> Promise<Value> {
        paced(ProgressPacer(.fraction(step)), on: queue, body)
    }

    private func paced(
        _ pacer: ProgressPacer, on queue: DispatchQueue?, _ body: @escaping @Sendable (PromiseProgress) -> Void
    ) -> Promise<Value> {
        let pacer = Locked(pacer)
        // Decided where events are delivered, one at a time, before any hop to `queue`.
        subscribe { event in
            let passed: PromiseProgress? = switch event {
            case .progress(let progress): pacer.withLock { $0.admits(progress, at: .now) } ? progress : nil
            case .settled: pacer.withLock { $0.takeWithheld() }
            }
            guard let passed else { return }
            if let queue { queue.async { body(passed) } } else { body(passed) }
        }
        return self
    }
}
