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
    /// progress. Ending the loop early does not cancel the promise.
    public var progressUpdates: AsyncStream<PromiseProgress> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            subscribe { event in
                switch event {
                case .progress(let progress): continuation.yield(progress)
                case .settled: continuation.finish()
                }
            }
        }
    }
}
