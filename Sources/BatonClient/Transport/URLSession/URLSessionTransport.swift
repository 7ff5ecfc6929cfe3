import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonSupport
import BatonPromise

/// A ``Transport`` over one `URLSession` with a session delegate.
///
/// It follows no redirect: every 3xx comes back as the response, and the ``Client`` follows it
/// under its ``RedirectPolicy``, whatever the transport (URLSession on Linux, left to itself,
/// keeps credentials across origins and drops bodies on 307 and 308). It also answers
/// authentication challenges without a credential, so a 401 completes the call.
///
/// Every request runs as a delegate task, so that the bytes of a response are counted as they
/// arrive: a response that declares, or delivers, more than
/// ``TransferOptions/maximumResponseSize`` is stopped there, whatever the server sends (a
/// completion-handler task would hold the whole body, however large, before anyone could look).
/// Progress reports the bytes sent while a body uploads; the bytes received are reported as
/// they arrive when the request has a body or ``TransferOptions/tracksDownloadProgress`` asks
/// for it, and otherwise once, when the response is complete.
///
/// Pausing a call suspends its task on Apple platforms. On Linux the transfer goes on and only
/// the promise's progress is held back: swift-corelibs-foundation cannot suspend a running task
/// safely (a resume that follows a suspend too closely crashes the process).
///
/// A promise settles on the session's serial delegate queue, as URLSession's own completion
/// handlers run, unless its response body is large (64 KiB or more):
/// then on a global concurrent queue, so that decoding it holds up no other response. The
/// session is invalidated when the transport is released, after its tasks finish: on Apple
/// platforms a session keeps its delegate until then. (No test holds this: the URLSession of
/// swift-corelibs-foundation, where the tests run, frees its delegate either way.)
public final class URLSessionTransport: Transport {
    let session: URLSession
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

    /// Sends `request` on the session: see ``Transport/send(_:body:options:)``.
    public func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
        let transfer = Transfer(transport: self, body: body, options: options)
        transfer.start(request)
        return transfer.promise
    }

    /// Bodies this large are handed over off the delegate queue: decoding them takes long
    /// enough to delay other responses, while for small ones the hop costs more than it saves.
    static let parallelDecodingThreshold = 64 << 10
}

/// One ``URLSessionTransport/send(_:body:options:)``: its promise and its task.
///
/// The transfer is what its promise waits for, so cancelling, pausing or resuming the promise
/// reaches the task directly (a promise made with `Promise { ... }` would need a
/// configuration, a settler and six closures more per request).
private final class Transfer: PromiseControl {
    let promise = Promise<HTTPResponse>(upstream: nil)
    /// Kept so that the session is not invalidated while a redirect hop may still start a task.
    private let transport: URLSessionTransport
    private let body: TransportBody?
    private let options: TransferOptions
    private let state = Lock<(task: URLSessionTask?, isCancelled: Bool, isPaused: Bool)>((nil, false, false))

    init(transport: URLSessionTransport, body: TransportBody?, options: TransferOptions) {
        self.transport = transport
        self.body = body
        self.options = options
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
        promise.settleTransfer(result)
    }

    func start(_ request: URLRequest) {
        let request = Self.withoutBody(request)
        // URLSession refuses a GET with a body (even an empty one) with the error code of a
        // response over the size limit; an empty body goes as none, and any other is refused
        // here, in words.
        var body = body
        if request.httpMethod == HTTPMethod.get.rawValue, let sent = body {
            guard sent.data?.isEmpty == true else {
                promise.settle(.failure(TransportRefusal(
                    field: "body", reason: "URLSession does not send a body with GET; send it with POST, or its values as query items"
                )))
                return
            }
            body = nil
        }
        let task = Self.delegateTask(for: request, body: body, on: transport.session)
        // An upload's bar follows the response too; a plain request's bytes are told once, at
        // the end, unless its endpoint asked for them as they arrive.
        let reportsEachChunk = options.reportsEachPiece(sendingBody: body != nil)
        let record = TaskRecord(
            body: body, maximumResponseSize: options.maximumResponseSize, downloadsToFile: options.destination.file != nil,
            bodyStream: options.destination.stream, timer: options.timer, reportsEachChunk: reportsEachChunk,
            progress: { [promise] in promise.report($0) }
        ) { [self] result in
            if !reportsEachChunk, case .success(let response) = result {
                let received = Int64(response.body.count)
                promise.report(PromiseProgress(completed: received, total: received, kind: .bytesReceived))
            }
            finish(result)
        }
        transport.delegate.register(record, for: task)
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
        if let url = body?.fileURL {
            #if canImport(FoundationNetworking)
            // FoundationNetworking reads a `fromFile` body ahead, pausing the transfer until a
            // chunk is in, and unpauses it from a callback that does not check whether the task
            // was cancelled meanwhile: cancelling such an upload can end the process
            // ("EasyHandle.swift: Fatal error ... libcurl.Easy Code=43"). A streamed body, which
            // the delegate opens on the file when asked, is read in place without pausing, in
            // as little memory; FoundationNetworking sends it chunked.
            return session.uploadTask(withStreamedRequest: request)
            #else
            return session.uploadTask(with: request, fromFile: url)
            #endif
        }
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
