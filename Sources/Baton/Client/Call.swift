import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonLocking

/// One ``Client/send(_:)``: its attempts, the retries between them, and its events.
///
/// Each attempt subscribes to the transport's promise directly (no promise in between): a call
/// costs one promise of its own plus one per attempt, which matters on the session's delegate
/// queue, where every response of a client is handled one after another. What the promise
/// fulfils with is `Output`: the decoded value (``Client/send(_:)``), or the value with its
/// response (``Client/answer(for:offline:)``).
final class Call<E: Endpoint, Output: Sendable>: Sendable {
    private let client: Client
    private let endpoint: E
    private let output: @Sendable (E.Response, HTTPResponse) -> Output
    private let outcome = Promise<Output>(upstream: nil)
    private let startedAt = ContinuousClock.now
    /// The latest attempt, for retriers (its request as sent) and monitors (the count, and the
    /// response that fulfilled the call).
    private let latest = Lock(LatestAttempt())

    init(client: Client, endpoint: E, output: @escaping @Sendable (E.Response, HTTPResponse) -> Output) {
        self.client = client
        self.endpoint = endpoint
        self.output = output
    }

    func start() -> Promise<Output> {
        do {
            let prepared = try client.builder.prepare(endpoint)
            client.emit(.started(prepared.summary))
            reportOutcome(of: prepared.summary)
            if let deadline = client.configuration.deadline { enforce(deadline, on: prepared.summary) }
            begin(prepared)
        } catch {
            client.emit(.started(error.request))
            reportOutcome(of: error.request)
            finish(.failure(error), response: nil)
        }
        return outcome
    }

    /// Writes a body too large for memory to its temporary file first, if the call has one, then
    /// makes the first attempt; every attempt sends that file.
    private func begin(_ prepared: PreparedRequest) {
        guard let form = prepared.spool else { return attempt(1, prepared) }
        let spooled = SpooledBody()
        outcome.subscribe { event in
            if case .settled = event { spooled.callEnded() }
        }
        let writing = spooled.write(form, for: prepared.summary)
        outcome.wait(for: writing)
        writing.subscribe { [self] event in
            guard case .settled(let settled) = event else { return }
            switch Promise<TransportBody>.result(of: settled) {
            case .success(let body):
                var ready = prepared
                ready.body = body
                ready.spool = nil
                attempt(1, ready)
            case .failure(let error):
                finish(.failure(error), response: nil)
            }
        }
    }

    /// Runs the adapters, if there are any, then sends.
    private func attempt(_ number: Int, _ prepared: PreparedRequest) {
        guard outcome.isPending else { return }
        // A retry starts its progress again, visibly: zero of what it sends first. The first
        // attempt starts from nothing reported.
        if number > 1 {
            let restart = prepared.body.map { PromiseProgress(completed: 0, total: $0.length, kind: .bytesSent) }
            report(restart ?? PromiseProgress(completed: 0, total: nil, kind: .bytesReceived))
        }
        let adapters = client.adapters
        // No adapter: no asynchronous hop and no promise for it.
        guard !adapters.isEmpty else { return send(prepared.urlRequest, attempt: number, prepared) }
        let retries = latest.withLock(annotating: self) { $0.retries }
        let context = AttemptContext(request: prepared.summary, attempt: number, retries: retries)
        switch Interception.adapt(prepared.urlRequest, by: adapters[...], context: context) {
        case .now(let result):
            adapted(result, attempt: number, prepared)
        case .later(let adapting):
            outcome.wait(for: adapting)
            adapting.subscribe { [self] event in
                guard case .settled(let settled) = event else { return }
                adapted(Promise<URLRequest>.result(of: settled), attempt: number, prepared)
            }
        }
    }

    /// The adapters are done: checks the fields they set, then sends.
    private func adapted(_ result: Result<URLRequest, any Error>, attempt number: Int, _ prepared: PreparedRequest) {
        do {
            let request = try result.get()
            try HeaderSyntax.validateHeaders(of: request, summary: prepared.summary, setBy: " (set by an adapter)")
            // Cancelled while the adapters finished: nothing more goes on the wire.
            guard outcome.isPending else { return }
            send(request, attempt: number, prepared)
        } catch {
            failed(attempt: number, prepared, error: error)
        }
    }

    /// Sends the attempt's request, then validates and decodes what comes back.
    private func send(_ request: URLRequest, attempt number: Int, _ prepared: PreparedRequest) {
        latest.withLock(annotating: self) { latest in
            latest.number = number
            latest.request = request
        }
        client.emit(.attemptStarted(prepared.summary, attempt: number, request: request.carrying(prepared.body)))
        exchange(request, body: prepared.body, attempt: number, redirects: 0, prepared)
    }

    /// Sends one request of the attempt: the first, or one that follows a redirect.
    private func exchange(_ request: URLRequest, body: TransportBody?, attempt number: Int, redirects: Int, _ prepared: PreparedRequest) {
        let limit = client.configuration.maximumResponseSize
        let options = TransferOptions(
            tracksDownloadProgress: endpoint.tracksDownloadProgress, maximumResponseSize: limit, downloadsToFile: endpoint is any DownloadsToFile
        )
        let exchange = client.transport.send(request, body: body, options: options)
        outcome.wait(for: exchange)
        exchange.subscribe { [self] event in
            switch event {
            case .progress(let progress):
                report(progress)
            case .settled(let settled):
                switch Promise<HTTPResponse>.result(of: settled) {
                case .success(let response) where response.body.count > limit:
                    // A transport that does not stop at the limit itself is held to it here.
                    failed(attempt: number, prepared, error: APIError.responseTooLarge(prepared.summary, limit: limit))
                case .success(let response):
                    if (300..<400).contains(response.statusCode) {
                        let policy = client.configuration.redirects
                        switch policy.step(after: response, to: request, body: body, alsoSensitive: client.configuration.sensitiveHeaders) {
                        case .follow(let next, let nextBody):
                            guard redirects < RedirectPolicy.maximumRedirects else {
                                return failed(attempt: number, prepared, error: APIError.transport(prepared.summary, URLError(.httpTooManyRedirects)))
                            }
                            // Cancelled between two hops: nothing more goes on the wire.
                            guard outcome.isPending else { return }
                            latest.withLock(annotating: self) { $0.request = next }
                            return self.exchange(next, body: nextBody, attempt: number, redirects: redirects + 1, prepared)
                        case .refuse(let reason):
                            return failed(attempt: number, prepared, error: APIError.redirectRefused(prepared.summary, response, reason: reason))
                        case .stop:
                            break
                        }
                    }
                    do {
                        // A download's file is moved into place by decoding; whatever else happens, it goes.
                        defer { if let file = response.bodyFile { try? FileManager.default.removeItem(at: file) } }
                        try Validation.validate(response, for: endpoint, request: prepared.summary)
                        let value = try ResponseDecoding.decode(response, for: endpoint, request: prepared.summary, decoder: client.configuration.decoder)
                        if let keeper = client.keeper, keeper.keeps(value) {
                            // Written off the session's queue, which every response of the client waits for.
                            return DispatchQueue.global().async { [self] in
                                do {
                                    try keeper.keep(value, from: response, for: prepared.summary, client: client)
                                    finish(.success(output(value, response)), response: response)
                                } catch {
                                    finish(.failure(error), response: nil)
                                }
                            }
                        }
                        finish(.success(output(value, response)), response: response)
                    } catch {
                        failed(attempt: number, prepared, error: error)
                    }
                case .failure(let error as URLError) where error.code == .cancelled:
                    failed(attempt: number, prepared, error: APIError.cancelled(prepared.summary))
                case .failure(let error as URLError) where error.code == .dataLengthExceedsMaximum:
                    failed(attempt: number, prepared, error: APIError.responseTooLarge(prepared.summary, limit: limit))
                case .failure(let error as URLError):
                    failed(attempt: number, prepared, error: APIError.transport(prepared.summary, error))
                case .failure(let error):
                    failed(attempt: number, prepared, error: error)
                }
            }
        }
    }

    /// An attempt failed: ask the retriers, then retry after their delay or fail the call.
    private func failed(attempt number: Int, _ prepared: PreparedRequest, error: any Error) {
        let summary = prepared.summary
        let retriers = client.retriers
        guard outcome.isPending, !error.isCancellation, !retriers.isEmpty else {
            return finish(.failure(error), response: nil)
        }
        let (sent, retries) = latest.withLock(annotating: self) { ($0.request, $0.retries) }
        let request = sent ?? prepared.urlRequest
        let context = AttemptContext(request: summary, attempt: number, response: (error as? APIError)?.response, retries: retries)
        switch Interception.decide(request, failedWith: error, by: retriers[...], context: context) {
        case .now(let result):
            decided(result, attempt: number, prepared, error: error)
        case .later(let deciding):
            outcome.wait(for: deciding)
            deciding.subscribe { [self] event in
                guard case .settled(let settled) = event else { return }
                decided(Promise<RetryDecision>.result(of: settled), attempt: number, prepared, error: error)
            }
        }
    }

    /// The retriers decided about the failed attempt: retry after the delay, or fail the call.
    private func decided(_ result: Result<RetryDecision, any Error>, attempt number: Int, _ prepared: PreparedRequest, error: any Error) {
        guard case .success(let decision) = result, outcome.isPending else {
            return finish(.failure(error), response: nil)
        }
        guard let delay = decision.delay else {
            return finish(.failure(decision.error ?? error), response: nil)
        }
        latest.withLock(annotating: self) { $0.retries[decision.cause, default: 0] += 1 }
        client.emit(.retrying(prepared.summary, attempt: number, error: error, delay: delay, cause: decision.cause))
        outcome.wait(for: DelayedStep(after: delay) { self.attempt(number + 1, prepared) })
    }

    /// Fails the call when `deadline` passes before it settles, cancelling whatever it is doing
    /// (adapting, sending, waiting to retry). The timer holds the call's promise weakly, so a
    /// settled call is not kept alive until its deadline.
    private func enforce(_ deadline: Duration, on request: RequestSummary) {
        DispatchQueue.global().asyncAfter(deadline: .now() + deadline.dispatchInterval) { [weak outcome] in
            outcome?.cancel(with: APIError.deadlineExceeded(request, deadline: deadline))
        }
    }

    /// Tells monitors how the call ended, from the first handler of the call's promise: so
    /// exactly once, exactly as it settled (a cancellation included, whatever the call was doing),
    /// and before any handler of the caller's runs. Without monitors there is nothing to tell.
    private func reportOutcome(of request: RequestSummary) {
        guard !client.configuration.monitors.isEmpty else { return }
        outcome.subscribe { [self] event in
            guard case .settled(let settled) = event else { return }
            let (attempts, response) = latest.withLock(annotating: self) { ($0.number, $0.response) }
            let duration = ContinuousClock.now - startedAt
            switch Promise<Output>.result(of: settled) {
            case .success:
                if let response { client.emit(.succeeded(request, response: response, attempts: attempts, duration: duration)) }
            case .failure(let error):
                let reported = error is CancellationError ? APIError.cancelled(request) : error
                client.emit(.failed(request, error: reported, attempts: attempts, duration: duration))
            }
        }
    }

    /// Settles the call, unless it was cancelled first.
    private func finish(_ ending: Result<Output, any Error>, response: HTTPResponse?) {
        var result = ending
        // A failure after retries says how many attempts it took, and how long.
        if case .failure(var error as APIError) = result, error.kind != .cancelled {
            let attempts = latest.withLock(annotating: self) { $0.number }
            if attempts > 1 {
                error.attempts = attempts
                error.duration = ContinuousClock.now - startedAt
                result = .failure(error)
            }
        }
        // Only monitors read the response back (see `reportOutcome`).
        if let response, !client.configuration.monitors.isEmpty {
            latest.withLock(annotating: self) { $0.response = response }
        }
        guard let queue = client.configuration.deliveryQueue else {
            outcome.settle(result)
            return
        }
        let settled = result
        queue.async { [outcome] in outcome.settle(settled) }
    }

    /// Reports progress, on the client's delivery queue if it has one. A report equal to the
    /// previous one (a transport that tells the end of a body twice) is left out.
    private func report(_ progress: PromiseProgress) {
        let repeated = latest.withLock(annotating: self) { latest in
            defer { latest.progress = progress }
            return latest.progress == progress
        }
        if repeated { return }
        guard let queue = client.configuration.deliveryQueue else { return outcome.report(progress) }
        queue.async { [outcome] in outcome.report(progress) }
    }
}

/// What a ``Call`` remembers of its latest attempt. Outside `Call` so that it is not generic:
/// a type nested in a generic class has its metadata looked up at run time on every use.
private struct LatestAttempt {
    var number = 0
    /// The progress reported last.
    var progress: PromiseProgress?
    var retries: [RetryCause: Int] = [:]
    var request: URLRequest?
    var response: HTTPResponse?
}
