import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request in flight: what the session delegate needs to report on it.
final class Exchange: @unchecked Sendable {
    // After registration, `response`, `received` and `finished` are touched only on the session's
    // serial delegate queue, which orders every access.
    let body: TransportBody?
    let bodyLength: Int64?
    let progress: @Sendable (PromiseProgress) -> Void
    let complete: @Sendable (Result<HTTPResponse, URLError>) -> Void
    var response: HTTPURLResponse?
    var received = Data()

    init(
        body: TransportBody?,
        progress: @escaping @Sendable (PromiseProgress) -> Void,
        complete: @escaping @Sendable (Result<HTTPResponse, URLError>) -> Void
    ) {
        self.body = body
        self.bodyLength = body?.length
        self.progress = progress
        self.complete = complete
    }
}

/// The delegate of a ``URLSessionTransport``'s session: routes each task's callbacks to its
/// ``Exchange``.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // `exchanges` is a `Locked` (its own mutex); `redirects` is immutable.
    private let exchanges = Locked<[Int: Exchange]>([:])
    let redirects: RedirectPolicy

    init(redirects: RedirectPolicy) {
        self.redirects = redirects
    }

    func register(_ exchange: Exchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    private func exchange(for task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        guard let exchange = exchange(for: task) else { return }
        let total = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : exchange.bodyLength
        exchange.progress(PromiseProgress(completed: totalBytesSent, total: total))
    }

    // Deliberately no `didReceive response:completionHandler:`: URLSession pauses the transfer
    // until the delegate queue answers it, a thread round trip on every request. The response
    // is read from the task instead.

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let exchange = exchange(for: dataTask) else { return }
        if exchange.response == nil { exchange.response = dataTask.response as? HTTPURLResponse }
        exchange.received.append(data)
        let expected = exchange.response?.expectedContentLength ?? -1
        exchange.progress(PromiseProgress(completed: Int64(exchange.received.count), total: expected >= 0 ? expected : nil))
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        let hasBody = exchange(for: task)?.body != nil
        if hasBody, response.statusCode == 307 || response.statusCode == 308 {
            // Stop here: the transport sends the body to Location itself (see Transfer).
            return completionHandler(nil)
        }
        completionHandler(redirects.redirect(request, from: task.currentRequest ?? task.originalRequest))
    }

    /// The `URLError` for a failed task. On Linux a body cut short of its declared length
    /// arrives as `.unknown` ("transfer closed with N bytes remaining"); it is reported as
    /// `.networkConnectionLost`, which is what happened, and which a retry may get past.
    private static func classify(_ error: any Error, exchange: Exchange) -> URLError {
        guard let urlError = error as? URLError else { return URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error]) }
        if urlError.code == .unknown, let expected = exchange.response?.expectedContentLength,
           expected > Int64(exchange.received.count) {
            return URLError(.networkConnectionLost, userInfo: [NSUnderlyingErrorKey: urlError])
        }
        return urlError
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            exchange.complete(.failure(Self.classify(error, exchange: exchange)))
            return
        }
        guard let response = exchange.response ?? task.response as? HTTPURLResponse else {
            exchange.complete(.failure(URLError(.badServerResponse)))
            return
        }
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        exchange.complete(.success(HTTPResponse(
            statusCode: response.statusCode, headers: headers, body: exchange.received, url: response.url
        )))
    }
}
