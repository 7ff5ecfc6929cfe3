import BatonSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise

/// The delegate of a ``URLSessionTransport``'s session: routes each task's callbacks to its
/// ``TaskRecord``.
// `records` and `challenged` are `Locked` (each guarded by its own mutex); nothing else is stored.
final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let records = Locked<[Int: TaskRecord]>([:])
    /// The responses of challenges answered by cancelling, by task, until the task completes.
    private let challenged = Locked<[Int: HTTPURLResponse]>([:])
    func register(_ record: TaskRecord, for task: URLSessionTask) {
        records.withLock { $0[task.taskIdentifier] = record }
    }

    private func taskRecord(for task: URLSessionTask) -> TaskRecord? {
        records.withLock { $0[task.taskIdentifier] }
    }

    /// A stream of the file a streamed upload sends (see `URLSessionTransport`'s streamed uploads).
    func urlSession(_ session: URLSession, task: URLSessionTask, needNewBodyStream completionHandler: @escaping (InputStream?) -> Void) {
        completionHandler(taskRecord(for: task)?.bodyFile.flatMap { InputStream(url: $0) })
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64, totalBytesExpectedToSend: Int64
    ) {
        guard let record = taskRecord(for: task) else { return }
        let total = totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : record.bodyLength
        record.progress(PromiseProgress(completed: totalBytesSent, total: total, kind: .bytesSent))
    }

    // Deliberately no `didReceive response:completionHandler:`: URLSession pauses the transfer
    // until the delegate queue answers it, a thread round trip on every request. The response
    // is read from the task instead.

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let record = taskRecord(for: dataTask), !record.isOverLimit, !record.downloadFailed else { return }
        if record.response == nil {
            record.timer?.receivedFirstByte()
            record.response = dataTask.response as? HTTPURLResponse
        }
        let expected = record.response?.expectedContentLength ?? -1
        if record.downloadsToFile, let status = record.response?.statusCode, (200..<300).contains(status) {
            return write(data, of: record, task: dataTask, expected: expected)
        }
        if let stream = record.bodyStream, let response = record.response {
            if record.streams == nil {
                let headers = response.allHeaderFields.reduce(into: [String: String]()) { $0["\($1.key)"] = "\($1.value)" }
                record.streams = stream.accepts(status: response.statusCode, headers: headers)
            }
            // The delegate queue serves every task of the session: it cannot wait for a slow
            // reader, so elements queue up instead (each still bounded by the stream's limit).
            if record.streams == true {
                let taken = data.withUnsafeBytes { stream.receive($0, canWait: false) }
                if !taken { dataTask.cancel() }
                return
            }
        }
        // `data` is what remains once any Content-Encoding is undone, so a small gzip body that
        // inflates past the limit is stopped too.
        guard expected <= Int64(record.maximumResponseSize), data.count <= record.maximumResponseSize - record.received.count else {
            record.isOverLimit = true
            record.received = Data()
            return dataTask.cancel()
        }
        // Most responses arrive in one piece: keep it as it is rather than copy it.
        if record.received.isEmpty { record.received = data } else { record.received.append(data) }
        guard record.reportsEachChunk else { return }
        record.progress(PromiseProgress(completed: Int64(record.received.count), total: expected >= 0 ? expected : nil, kind: .bytesReceived))
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
    /// the call with that response (its head; FoundationNetworking drops the body). With no response here, FoundationNetworking leaves a `Basic`
    /// challenge's task waiting forever. Other challenges (TLS server trust, client certificates)
    /// keep the system's handling.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard Self.httpAuthenticationMethods.contains(challenge.protectionSpace.authenticationMethod) else {
            return completionHandler(.performDefaultHandling, nil)
        }
        // Cancelling is the one response FoundationNetworking acts on at once; the task then fails
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
        guard let record = records.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if error == nil, !record.downloadFailed, record.download != nil {
            do { try flush(record) } catch { record.downloadFailed = true }
        }
        let download = record.download
        try? download?.handle.close()
        if record.isOverLimit || record.downloadFailed || error != nil, let download {
            try? FileManager.default.removeItem(at: download.url)
        }
        if record.isOverLimit {
            // The caller's own cancel, if one came too, has already settled the promise.
            return record.complete(.failure(URLError(.dataLengthExceedsMaximum)))
        }
        if record.downloadFailed {
            return record.complete(.failure(URLError(.cannotWriteToFile)))
        }
        let response = record.response ?? task.response as? HTTPURLResponse
        var result = Self.result(
            of: response, body: record.received, declaredLength: response?.expectedContentLength, error: error
        )
        if case .success(var answer) = result, record.downloadsToFile, (200..<300).contains(answer.statusCode) {
            answer.bodyFile = download?.url ?? DownloadFile.make()
            result = .success(answer)
        }
        record.complete(answeringChallenge(of: task, result))
    }

    /// Appends a piece of a download to its temporary file, made on the first piece. A write
    /// that fails cancels the task, which then fails with `URLError(.cannotWriteToFile)`.
    private func write(_ data: Data, of record: TaskRecord, task: URLSessionDataTask, expected: Int64) {
        do {
            if record.download == nil {
                guard let (url, handle) = DownloadFile.open() else { throw URLError(.cannotCreateFile) }
                record.download = (url, handle, 0)
            }
            record.unwritten.append(data)
            record.download?.written += Int64(data.count)
            if record.unwritten.count >= Self.downloadWriteSize { try flush(record) }
        } catch {
            record.downloadFailed = true
            return task.cancel()
        }
        guard record.reportsEachChunk else { return }
        record.progress(PromiseProgress(completed: record.download?.written ?? 0, total: expected >= 0 ? expected : nil, kind: .bytesReceived))
    }

    /// How many bytes of a download are gathered before they are written.
    static let downloadWriteSize = 1 << 20

    /// Writes what a download has gathered.
    private func flush(_ record: TaskRecord) throws {
        guard !record.unwritten.isEmpty, let handle = record.download?.handle else { return }
        try handle.write(contentsOf: record.unwritten)
        record.unwritten.removeAll(keepingCapacity: true)
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
