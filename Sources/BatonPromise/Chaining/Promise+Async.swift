import BatonSupport

// Bridges between promises and Swift concurrency, both ways.

extension Promise {
    /// Creates a promise of the value an `async` operation returns, run in a new Swift task.
    ///
    /// Cancelling the promise cancels that task; an error the operation throws rejects the
    /// promise (a `CancellationError` settles it as cancelled).
    ///
    /// ```swift
    /// let token = Promise { try await keychain.loadToken() }
    /// ```
    public convenience init(
        priority: TaskPriority? = nil,
        operation: @escaping @Sendable () async throws -> Value
    ) {
        self.init { _, fulfill, reject, configure in
            let task = Task(priority: priority) {
                do { fulfill(try await operation()) } catch { reject(error) }
            }
            configure.cancel = { task.cancel() }
        }
    }

    /// The promise's value, waiting for it to settle.
    ///
    /// Throws the promise's error; a promise cancelled by ``cancel()`` throws `CancellationError`.
    /// Cancelling the Swift task that awaits cancels the promise (and so the work it stands for).
    public var value: Value {
        get async throws {
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { continuation in
                    subscribe { event in
                        if case .settled(let outcome) = event { continuation.resume(with: Self.result(of: outcome)) }
                    }
                }
            } onCancel: {
                cancel()
            }
        }
    }

    /// The promise's progress as an async sequence, which ends when the promise settles.
    ///
    /// Only the newest update waits for a slow reader, matching the "latest value" nature of
    /// progress. A reader that comes late, after the last update or after the promise settled,
    /// still gets the latest update before the sequence ends, so it learns how far the work
    /// came. Ending the loop early does not cancel the promise.
    ///
    /// ```swift
    /// for await progress in download.progressUpdates { print(progress) }
    /// ```
    public var progressUpdates: AsyncStream<PromiseProgress> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let yielded = Locked<PromiseProgress?>(nil)
            subscribe { event in
                switch event {
                case .progress(let progress):
                    yielded.withLock { $0 = progress }
                    continuation.yield(progress)
                case .settled:
                    let latest = self.core.withLock(annotating: self) { $0.latestProgress }
                    if let latest, yielded.withLock({ $0 }) != latest { continuation.yield(latest) }
                    continuation.finish()
                }
            }
        }
    }
}
