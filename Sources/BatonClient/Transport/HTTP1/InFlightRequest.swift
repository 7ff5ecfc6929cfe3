import BatonSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise
import BatonWire

/// One request given to an ``HTTP1Transport``: its promise, and what a cancel, pause or resume
/// must reach while a connection carries it.
///
/// The request is what its promise waits for, so cancelling the promise shuts the socket down at
/// once (the connection's thread, blocked reading or writing, returns), pausing it stops the
/// connection between two reads or two writes (TCP then holds the server back), and resuming it
/// lets the connection go on.
final class InFlightRequest: PromiseControl {
    let promise = Promise<HTTPResponse>(upstream: nil)
    let request: URLRequest
    let body: TransportBody?
    let options: TransferOptions

    private struct State {
        var isCancelled = false
        var isPaused = false
        /// The socket carrying the request, for a cancel to shut down.
        var socket: Socket?
        /// Signalled by a resume or a cancel, when the connection waits on a pause.
        var pauseWaiter: DispatchSemaphore?
    }

    private let state = Lock(State())

    init(request: URLRequest, body: TransportBody?, options: TransferOptions) {
        self.request = request
        self.body = body ?? request.httpBody.map { .data($0) }
        self.options = options
        // Until it settles, the promise holds the request, and the request the promise.
        promise.wait(for: self)
    }

    /// How long any one wait for the server may last: the request's timeout.
    var timeout: Duration {
        let seconds = request.timeoutInterval
        return seconds.isFinite && seconds > 0 ? .milliseconds(Int64(min(seconds, 1e9) * 1000)) : .seconds(60)
    }

    /// Whether a server that closed a kept-alive connection before answering may be sent this
    /// request again: its method is idempotent by ``HTTPMethod/isIdempotent`` (a request without
    /// a method is a `GET`, as URLRequest sends it), or it carries an `Idempotency-Key`, which a
    /// server acts on once.
    var isIdempotent: Bool {
        // HTTPMethod's rule, not a list of our own: the retry policy and the transport must
        // never disagree on which requests may be sent twice.
        HTTPMethod(rawValue: request.httpMethod ?? "GET").isIdempotent
            || request.value(forHTTPHeaderField: IdempotencyKey.headerName) != nil
    }

    // MARK: What the promise reaches

    func cancelStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        let waiter = state.withLock(annotating: self) { state in
            state.isCancelled = true
            // Under the lock that `detach()` takes before the connection closes the socket: the
            // descriptor shut down is this request's, never a number closed and reused since.
            state.socket?.shutdown()
            defer { state.pauseWaiter = nil }
            return state.pauseWaiter
        }
        waiter?.signal()
        return nil
    }

    func pauseStep() -> (any PromiseControl)? {
        state.withLock(annotating: self) { $0.isPaused = true }
        return nil
    }

    func resumeStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        let waiter = state.withLock(annotating: self) { state in
            state.isPaused = false
            defer { state.pauseWaiter = nil }
            return state.pauseWaiter
        }
        waiter?.signal()
        return nil
    }

    func release() {}

    // MARK: What the connection asks

    var isCancelled: Bool { state.withLock(annotating: self) { $0.isCancelled } }

    /// Makes `socket` the one a cancel shuts down; `false`, and nothing attached, when the
    /// request was cancelled already.
    func attach(_ socket: Socket) -> Bool {
        state.withLock(annotating: self) { state in
            guard !state.isCancelled else { return false }
            state.socket = socket
            return true
        }
    }

    /// Forgets the socket, before the connection closes it or carries another request with it:
    /// once this returns, no cancel touches its descriptor.
    func detach() {
        state.withLock(annotating: self) { $0.socket = nil }
    }

    /// Returns at once unless the request is paused; then waits until it is resumed or
    /// cancelled. `false` when it was cancelled.
    func waitWhilePaused() -> Bool {
        while true {
            let waiter: DispatchSemaphore? = state.withLock(annotating: self) { state in
                guard state.isPaused, !state.isCancelled else { return nil }
                let waiter = state.pauseWaiter ?? DispatchSemaphore(value: 0)
                state.pauseWaiter = waiter
                return waiter
            }
            guard let waiter else { return !isCancelled }
            waiter.wait()
        }
    }

    /// Reports `progress` on the promise.
    func report(_ progress: PromiseProgress) {
        promise.report(progress)
    }

    /// Settles the promise with `result`. The connection is back in its pool by then, so a
    /// request its handlers send (the next step of a chain) can go on this very connection.
    /// Handlers of a small response run on the connection's thread, as URLSession's run on its
    /// delegate queue; a large response (``URLSessionTransport/parallelDecodingThreshold`` or
    /// more) is handed to a global queue, so that decoding it holds up no other request.
    func finish(_ result: Result<HTTPResponse, URLError>) {
        promise.settleTransfer(result)
    }
}
