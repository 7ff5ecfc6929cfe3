import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonLocking

/// A ``Transport`` over one `URLSession` with a session delegate.
///
/// It follows no redirect: every 3xx comes back as the response, and the ``Client`` follows it
/// under its ``RedirectPolicy``, whatever the transport (URLSession on Linux, left to itself,
/// keeps credentials across origins and drops bodies on 307 and 308). It also answers
/// authentication challenges without a credential, so a 401 completes the call, and reports
/// progress, in one of two ways:
/// - A request with a body, or one whose endpoint tracks download progress, runs as a delegate
///   task: URLSession on Linux reports bytes sent only to a session delegate, and bytes
///   received as they arrive only to one too.
/// - Any other request runs as a completion-handler task on the same session (its redirects
///   still go through the delegate), and reports the bytes received once, when the response is
///   complete. URLSession then makes one call on its delegate queue per request instead of three
///   (response, data, completion), which on Linux is about a tenth of a small request's time.
///
/// Pausing a call suspends its task on Apple platforms. On Linux the transfer goes on and only
/// the promise's progress is held back: swift-corelibs-foundation cannot suspend a running task
/// safely (a resume that follows a suspend too closely crashes the process).
///
/// A promise settles on the session's serial delegate queue, as URLSession's own completion
/// handlers run, unless its response body is large (``parallelDecodingThreshold`` or more):
/// then on a global concurrent queue, so that decoding it holds up no other response. The
/// session is invalidated when the transport is released, after its tasks finish.
public final class URLSessionTransport: Transport {
    fileprivate let session: URLSession
    fileprivate let delegate: SessionDelegate

    /// Creates a transport with its own session.
    ///
    /// - Parameter configuration: The session's configuration. Its cache and cookie storage are
    ///   used as configured; the default is `.ephemeral`, so nothing persists between runs.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        let delegate = SessionDelegate()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "Baton.URLSessionTransport"
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` on the session: see ``Transport/send(_:body:tracksDownloadProgress:)``.
    public func send(_ request: URLRequest, body: TransportBody?, tracksDownloadProgress: Bool) -> Promise<HTTPResponse> {
        let transfer = Transfer(transport: self, body: body, tracksDownloadProgress: tracksDownloadProgress)
        transfer.start(request)
        return transfer.promise
    }

    /// Bodies this large are handed over off the delegate queue: decoding them takes long
    /// enough to delay other responses, while for small ones the hop costs more than it saves.
    public static let parallelDecodingThreshold = 64 << 10
}

/// One ``URLSessionTransport/send(_:body:tracksDownloadProgress:)``: its promise and its task.
///
/// The transfer is what its promise waits for, so cancelling, pausing or resuming the promise
/// reaches the task directly (a promise made with `Promise { ... }` would need a
/// configuration, a settler and six closures more per request).
private final class Transfer: PromiseControl {
    let promise = Promise<HTTPResponse>(upstream: nil)
    /// Kept so that the session is not invalidated while a redirect hop may still start a task.
    private let transport: URLSessionTransport
    private let body: TransportBody?
    private let tracksDownloadProgress: Bool
    private let state = Lock<(task: URLSessionTask?, isCancelled: Bool, isPaused: Bool)>((nil, false, false))

    init(transport: URLSessionTransport, body: TransportBody?, tracksDownloadProgress: Bool) {
        self.transport = transport
        self.body = body
        self.tracksDownloadProgress = tracksDownloadProgress
        // Until it settles, the promise holds the transfer, and the transfer the promise.
        promise.wait(for: self)
    }

    // MARK: What the promise reaches

    func cancelStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        state.withLock(annotating: self) { state in
            state.isCancelled = true
            return state.task
        }?.cancel()
        return nil
    }

    func pauseStep() -> (any PromiseControl)? {
        setPaused(true)
        return nil
    }

    func resumeStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        setPaused(false)
        return nil
    }

    func release() {}

    /// Suspends or resumes the current task; a task started by a later redirect hop starts in
    /// the same state. The task is told under the lock, so that pauses and resumes racing on
    /// several threads reach it in the order they changed the state; URLSession never calls
    /// back into a transfer while suspending or resuming a task, so this cannot deadlock.
    ///
    /// Not with swift-corelibs-foundation (Linux), where suspending a running task is not safe:
    /// it stops the transfer asynchronously, and a resume that arrives first makes that stop
    /// kill the process ("NativeProtocol.swift: Fatal error"). There the transfer goes on
    /// while the call is paused, and the promise holds its progress back until resumed.
    private func setPaused(_ paused: Bool) {
        #if !canImport(FoundationNetworking)
        state.withLock(annotating: self) { state in
            guard state.isPaused != paused else { return }
            state.isPaused = paused
            if paused { state.task?.suspend() } else { state.task?.resume() }
        }
        #endif
    }

    // MARK: The outcome

    private func finish(_ result: Result<HTTPResponse, URLError>) {
        switch result {
        case .success(let response) where response.body.count >= URLSessionTransport.parallelDecodingThreshold:
            DispatchQueue.global().async { self.promise.fulfil(response) }
        case .success(let response):
            promise.fulfil(response)
        case .failure(let error):
            promise.settle(.failure(error))
        }
    }

    func start(_ request: URLRequest) {
        let request = Self.withoutBody(request)
        let session = transport.session
        let task: URLSessionTask
        if body == nil, !tracksDownloadProgress {
            // Nothing to send and no one following the bytes in: one callback at the end.
            task = session.dataTask(with: request) { [self] data, response, error in
                // A failed task hands over neither its response nor the bytes that did arrive:
                // the declared length comes from the task, and with nothing counted as received,
                // any failure of unknown cause after a head that declared a length is taken for
                // a body cut short (a delegate task counts the bytes, and tells them apart).
                let task = self.state.withLock(annotating: self) { $0.task }
                var result = SessionDelegate.result(
                    of: response, body: data ?? Data(), declaredLength: task?.countOfBytesExpectedToReceive, error: error
                )
                if let task { result = transport.delegate.answeringChallenge(of: task, result) }
                if case .success(let response) = result {
                    let received = Int64(response.body.count)
                    promise.report(PromiseProgress(completed: received, total: received))
                }
                finish(result)
            }
        } else {
            task = Self.delegateTask(for: request, body: body, on: session)
            let exchange = Exchange(body: body, progress: { [promise] in promise.report($0) }) { [self] result in
                finish(result)
            }
            transport.delegate.register(exchange, for: task)
        }
        let wasCancelled = state.withLock(annotating: self) { state in
            state.task = task
            // Under the lock, as pauses and resumes are (see `setPaused`).
            if !state.isCancelled && !state.isPaused { task.resume() }
            return state.isCancelled
        }
        if wasCancelled {
            task.cancel()  // cancelled while the task was being made: it completes as cancelled
        }
    }

    /// A task whose every event reaches the session's delegate.
    private static func delegateTask(for request: URLRequest, body: TransportBody?, on session: URLSession) -> URLSessionTask {
        if let data = body?.data { return session.uploadTask(with: request, from: data) }
        if let url = body?.fileURL { return session.uploadTask(with: request, fromFile: url) }
        return session.dataTask(with: request)
    }

    /// The body travels in the upload task, never in the request.
    private static func withoutBody(_ request: URLRequest) -> URLRequest {
        // Reading is cheap; setting copies the underlying NSMutableURLRequest.
        guard request.httpBody != nil else { return request }
        var request = request
        request.httpBody = nil
        return request
    }
}
