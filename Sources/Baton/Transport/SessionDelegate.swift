import BatonLocking
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request in flight: what the session delegate needs to report on it.
// Not a lock: after registration, `response`, `received`, `isOverLimit`, `download`,
// `unwritten` and `downloadFailed` are touched only on the session's serial delegate queue (one
// operation at a time), which orders every access.
final class Exchange: @unchecked Sendable {
    let bodyLength: Int64?
    /// The file a streamed body is read from, for URLSession to ask for a stream of it.
    let bodyFile: URL?
    let maximumResponseSize: Int
    /// Whether each piece of the response is reported as progress, or only the whole at the end.
    let reportsEachChunk: Bool
    let progress: @Sendable (PromiseProgress) -> Void
    let complete: @Sendable (Result<HTTPResponse, URLError>) -> Void
    var response: HTTPURLResponse?
    var received = Data()
    /// The response declared or delivered more than `maximumResponseSize`: its task was
    /// cancelled, and what arrived was dropped.
    var isOverLimit = false
    /// Whether a successful body goes to a file (see ``TransferOptions/downloadsToFile``).
    let downloadsToFile: Bool
    /// The file being written, for a download, and how much arrived for it.
    var download: (url: URL, handle: FileHandle, written: Int64)?
    /// Bytes of a download not yet written: pieces arrive some 16 KiB at a time, and are written
    /// a mebibyte at a time, which spares thousands of system calls a large download.
    var unwritten = Data()
    /// Writing the download failed: its task was cancelled.
    var downloadFailed = false

    init(
        body: TransportBody?,
        maximumResponseSize: Int,
        downloadsToFile: Bool = false,
        reportsEachChunk: Bool,
        progress: @escaping @Sendable (PromiseProgress) -> Void,
        complete: @escaping @Sendable (Result<HTTPResponse, URLError>) -> Void
    ) {
        self.bodyLength = body?.length
        self.bodyFile = body?.fileURL
        self.maximumResponseSize = maximumResponseSize
        self.downloadsToFile = downloadsToFile
        self.reportsEachChunk = reportsEachChunk
        self.progress = progress
        self.complete = complete
    }
}

/// The delegate of a ``URLSessionTransport``'s session: routes each task's callbacks to its
/// ``Exchange``.
// `exchanges` and `challenged` are `Locked` (each guarded by its own mutex); nothing else is stored.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let exchanges = Locked<[Int: Exchange]>([:])
    /// The responses of challenges answered by cancelling, by task, until the task completes.
    private let challenged = Locked<[Int: HTTPURLResponse]>([:])
    func register(_ exchange: Exchange, for task: URLSessionTask) {
        exchanges.withLock { $0[task.taskIdentifier] = exchange }
    }

    private func exchange(for task: URLSessionTask) -> Exchange? {
        exchanges.withLock { $0[task.taskIdentifier] }
    }

    /// A stream of the file a streamed upload sends (see `URLSessionTransport`'s streamed uploads).
    func urlSession(_ session: URLSession, task: URLSessionTask, needNewBodyStream completionHandler: @escaping (InputStream?) -> Void) {
        completionHandler(exchange(for: task)?.bodyFile.flatMap { InputStream(url: $0) })
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        guard let exchange = exchange(for: task) else { return }
        let total = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : exchange.bodyLength
        exchange.progress(PromiseProgress(completed: totalBytesSent, total: total, kind: .bytesSent))
    }

    // Deliberately no `didReceive response:completionHandler:`: URLSession pauses the transfer
    // until the delegate queue answers it, a thread round trip on every request. The response
    // is read from the task instead.

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let exchange = exchange(for: dataTask), !exchange.isOverLimit, !exchange.downloadFailed else { return }
        if exchange.response == nil { exchange.response = dataTask.response as? HTTPURLResponse }
        let expected = exchange.response?.expectedContentLength ?? -1
        if exchange.downloadsToFile, let status = exchange.response?.statusCode, (200..<300).contains(status) {
            return write(data, of: exchange, task: dataTask, expected: expected)
        }
        // `data` is what remains once any Content-Encoding is undone, so a small gzip body that
        // inflates past the limit is stopped too.
        guard expected <= Int64(exchange.maximumResponseSize), data.count <= exchange.maximumResponseSize - exchange.received.count else {
            exchange.isOverLimit = true
            exchange.received = Data()
            return dataTask.cancel()
        }
        // Most responses arrive in one piece: keep it as it is rather than copy it.
        if exchange.received.isEmpty { exchange.received = data } else { exchange.received.append(data) }
        guard exchange.reportsEachChunk else { return }
        exchange.progress(PromiseProgress(completed: Int64(exchange.received.count), total: expected >= 0 ? expected : nil, kind: .bytesReceived))
    }

    /// Follows no redirect: the 3xx is the task's response, and the client decides what comes
    /// next (see ``RedirectPolicy``).
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// Answers an authentication challenge without a credential. Baton sends credentials itself,
    /// through adapters; a challenge (a 401 or 407 with `WWW-Authenticate`) therefore completes
    /// the call with that response (its head; FoundationNetworking drops the body). With no answer here, FoundationNetworking leaves a `Basic`
    /// challenge's task waiting forever. Other challenges (TLS server trust, client certificates)
    /// keep the system's handling.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard Self.httpAuthenticationMethods.contains(challenge.protectionSpace.authenticationMethod) else {
            return completionHandler(.performDefaultHandling, nil)
        }
        // Cancelling is the one answer FoundationNetworking acts on at once; the task then fails
        // as cancelled, and `result` hands back the challenge's response instead.
        if let response = challenge.failureResponse as? HTTPURLResponse {
            challenged.withLock { $0[task.taskIdentifier] = response }
        }
        completionHandler(.cancelAuthenticationChallenge, nil)
    }

    /// The challenges a server makes with `WWW-Authenticate` or `Proxy-Authenticate`.
    private static let httpAuthenticationMethods: Set<String> = [
        NSURLAuthenticationMethodDefault, NSURLAuthenticationMethodHTTPBasic, NSURLAuthenticationMethodHTTPDigest,
        NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate,
    ]

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let exchange = exchanges.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if error == nil, !exchange.downloadFailed, exchange.download != nil {
            do { try flush(exchange) } catch { exchange.downloadFailed = true }
        }
        let download = exchange.download
        try? download?.handle.close()
        if exchange.isOverLimit || exchange.downloadFailed || error != nil, let download {
            try? FileManager.default.removeItem(at: download.url)
        }
        if exchange.isOverLimit {
            // The caller's own cancel, if one came too, has already settled the promise.
            return exchange.complete(.failure(URLError(.dataLengthExceedsMaximum)))
        }
        if exchange.downloadFailed {
            return exchange.complete(.failure(URLError(.cannotWriteToFile)))
        }
        let response = exchange.response ?? task.response as? HTTPURLResponse
        var result = Self.result(
            of: response, body: exchange.received, declaredLength: response?.expectedContentLength, error: error
        )
        if case .success(var answer) = result, exchange.downloadsToFile, (200..<300).contains(answer.statusCode) {
            answer.bodyFile = download?.url ?? Self.emptyFile()
            result = .success(answer)
        }
        exchange.complete(answeringChallenge(of: task, result))
    }

    /// Appends a piece of a download to its temporary file, made on the first piece. A write
    /// that fails cancels the task, which then fails with `URLError(.cannotWriteToFile)`.
    private func write(_ data: Data, of exchange: Exchange, task: URLSessionDataTask, expected: Int64) {
        do {
            if exchange.download == nil {
                let url = FileManager.default.temporaryDirectory.appending(path: "baton-download-\(UUID().uuidString).part")
                guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                    throw URLError(.cannotCreateFile)
                }
                exchange.download = (url, try FileHandle(forWritingTo: url), 0)
            }
            exchange.unwritten.append(data)
            exchange.download?.written += Int64(data.count)
            if exchange.unwritten.count >= Self.downloadWriteSize { try flush(exchange) }
        } catch {
            exchange.downloadFailed = true
            return task.cancel()
        }
        guard exchange.reportsEachChunk else { return }
        exchange.progress(PromiseProgress(completed: exchange.download?.written ?? 0, total: expected >= 0 ? expected : nil, kind: .bytesReceived))
    }

    /// How many bytes of a download are gathered before they are written.
    static let downloadWriteSize = 1 << 20

    /// Writes what a download has gathered.
    private func flush(_ exchange: Exchange) throws {
        guard !exchange.unwritten.isEmpty, let handle = exchange.download?.handle else { return }
        try handle.write(contentsOf: exchange.unwritten)
        exchange.unwritten.removeAll(keepingCapacity: true)
    }

    /// An empty temporary file: the body of a successful download that sent no bytes.
    private static func emptyFile() -> URL? {
        let url = FileManager.default.temporaryDirectory.appending(path: "baton-download-\(UUID().uuidString).part")
        return FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) ? url : nil
    }

    /// `result`, or the response of the challenge `task` was cancelled for: the call then
    /// completes with the 401 (or 407), which validation reports. A cancel of the caller's own
    /// lands first on the promise, which then ignores this.
    func answeringChallenge(of task: URLSessionTask, _ result: Result<HTTPResponse, URLError>) -> Result<HTTPResponse, URLError> {
        guard case .failure(let error) = result, error.code == .cancelled || error.code == .userCancelledAuthentication,
              let response = challenged.withLock({ $0.removeValue(forKey: task.taskIdentifier) })
        else { return result }
        return .success(HTTPResponse(response, body: Data()))
    }

    /// What a finished task hands back: `body` is what arrived, `declaredLength` the length the
    /// response's head announced, if one did (negative for none).
    static func result(
        of response: URLResponse?, body: Data, declaredLength: @autoclosure () -> Int64?, error: (any Error)?
    ) -> Result<HTTPResponse, URLError> {
        if let error { return .failure(classify(error, declaredLength: declaredLength(), received: body.count)) }
        guard let response = response as? HTTPURLResponse else { return .failure(URLError(.badServerResponse)) }
        return .success(HTTPResponse(response, body: body))
    }

    /// The `URLError` for a failed task. On Linux a body cut short of its declared length
    /// arrives as `.unknown` ("transfer closed with N bytes remaining"); it is reported as
    /// `.networkConnectionLost`, which is what happened, and which a retry may get past.
    private static func classify(_ error: any Error, declaredLength: Int64?, received: Int) -> URLError {
        guard let urlError = error as? URLError else { return URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error]) }
        if urlError.code == .unknown, let declaredLength, declaredLength > Int64(received) {
            return URLError(.networkConnectionLost, userInfo: [NSUnderlyingErrorKey: urlError])
        }
        return urlError
    }
}
