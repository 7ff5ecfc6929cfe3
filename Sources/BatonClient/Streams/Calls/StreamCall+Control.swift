/// What a stream's promise reaches: cancelling, pausing and resuming reach the connection too.
import BatonPromise
extension StreamCall {

    func cancelStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        let (connection, reconnection, waiter) = state.withLock(annotating: self) { state in
            state.isCancelled = true
            defer { state.waiter = nil }
            flags.withLock(annotating: self) { $0.isCancelled = true }
            return (state.connection, state.pendingReconnection, state.waiter)
        }
        bodyStream.close()
        reconnection?.cancelWork()
        waiter?(.failure(CancellationError()))
        return connection
    }

    func pauseStep() -> (any PromiseControl)? {
        state.withLock(annotating: self) { state in
            state.isPaused = true
            flags.withLock(annotating: self) { $0.isPaused = true }
            return state.connection
        }
    }

    func resumeStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        let connection = state.withLock(annotating: self) { state in
            state.isPaused = false
            flags.withLock(annotating: self) { $0.isPaused = false }
            return state.connection
        }
        drain()
        return connection
    }

    func release() {}

    /// Stops the stream: the reader has gone (an async loop broken out of, its task cancelled).
    func cancel() {
        promise.cancel()
    }
}

/// What a stream's drain asks before each element.
struct ReaderFlags {
    var isPaused = false
    var isCancelled = false
}
