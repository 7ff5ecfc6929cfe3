import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A ``Transport`` over one `URLSession` whose delegate sees every task.
///
/// It is delegate-based because on Linux URLSession reports upload progress only to a session
/// delegate, never to completion-handler tasks. Its delegate also carries out ``RedirectPolicy``,
/// which URLSession on Linux would not: it keeps every header (credentials included) when a
/// redirect leaves the origin, and drops the body on 307 and 308.
///
/// Promises settle on a global concurrent queue, not on the session's serial delegate queue,
/// so decoding of concurrent responses runs in parallel. The session is invalidated when the
/// transport is released, after its tasks finish.
public final class URLSessionTransport: Transport {
    private let session: URLSession
    private let delegate: SessionDelegate

    /// Creates a transport with its own session.
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration. Its cache and cookie storage are used as
    ///     configured; the default is `.ephemeral`, so nothing persists between runs.
    ///   - redirects: What to do when a response redirects.
    public init(configuration: URLSessionConfiguration = .ephemeral, redirects: RedirectPolicy = .default) {
        let delegate = SessionDelegate(redirects: redirects)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "Baton.URLSessionTransport"
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func send(_ request: URLRequest, body: TransportBody?) -> Promise<HTTPResponse> {
        Promise { progress, fulfill, reject, configure in
            var request = request
            request.httpBody = nil
            let task: URLSessionTask
            switch body {
            case nil:
                task = session.dataTask(with: request)
            case .data(let data)?:
                task = session.uploadTask(with: request, from: data)
            case .file(let url)?:
                task = session.uploadTask(with: request, fromFile: url)
            }
            let exchange = Exchange(
                body: body,
                progress: progress,
                complete: { result in
                    // Off the delegate queue, so that concurrent responses decode in parallel.
                    DispatchQueue.global().async {
                        switch result {
                        case .success(let response): fulfill(response)
                        case .failure(let error): reject(error)
                        }
                    }
                }
            )
            delegate.register(exchange, for: task)
            configure.cancel = { task.cancel() }
            configure.pause = { task.suspend() }
            configure.resume = { task.resume() }
            task.resume()
        }
    }
}
