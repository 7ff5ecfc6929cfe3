import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonSupport
import BatonPromise
import BatonWire

/// One ``Client/send(_:)``: its attempts, the retries between them, its deadline and its events.
///
/// An attempt goes through the stages, each a type with one job: the request is **prepared**
/// once (``RequestBuilder``), then each attempt is **adapted** (the adapters, through
/// ``Interception``), **exchanged** (``Exchange``: the transport, redirects, the size limit) and
/// **processed** (``ResponseProcessing``: validation, decoding, the response hooks); a failed
/// attempt is **decided** on (the retriers and the retry policy, through ``Interception``). The
/// call itself keeps only what spans attempts: their loop, the deadline, and delivering the
/// outcome. A new feature plugs in as a stage or a hook, not as a branch here.
///
/// A call costs one promise of its own plus one per hop (the stages subscribe to the transport's
/// promise directly), which matters on a session's delegate queue, where every response of a client
/// is handled in turn. `Output` is the decoded value (``Client/send(_:)``), the value with its
/// response (``Client/fetch(_:offline:)``), or what a ``CallDestination`` makes of a body that
/// went to a file or a stream (a download's file, a stream's end).
final class Call<E: Endpoint, Output: Sendable>: Sendable {
    private let context: CallContext
    private let endpoint: E
    private let product: CallProduct<E, Output>
    private let outcome = Promise<Output>(upstream: nil)
    private let startedAt = ContinuousClock.now
    /// The latest attempt, for retriers (its request as sent) and monitors (the count, and the
    /// response that fulfilled the call).
    private let latest = Lock(LatestAttempt())
    private let exchange: Exchange
    private let processing: ResponseProcessing<E>
    /// Asked before the retriers: whether a failed attempt may be retried at all. A stream's
    /// connection may not, once its response is under way (elements were handed on).
    private let mayRetry: @Sendable () -> Bool
    /// Whether the client's deadline applies: not to a stream, which may rightly last for hours.
    private let hasDeadline: Bool
    /// Whether the call's moments are kept, for the timings its monitors hear.
    private let keepsTimings: Bool

    /// A call whose endpoint decodes the body, `output` making the call's value of it.
    convenience init(context: CallContext, endpoint: E, output: @escaping @Sendable (E.Response, HTTPResponse) -> Output) {
        self.init(context: context, endpoint: endpoint, product: .decoded(output))
    }

    init(
        context: CallContext, endpoint: E, product: CallProduct<E, Output>, mayRetry: @escaping @Sendable () -> Bool = { true },
        hasDeadline: Bool = true
    ) {
        self.context = context
        self.endpoint = endpoint
        self.product = product
        self.mayRetry = mayRetry
        self.hasDeadline = hasDeadline
        switch product {
        case .decoded:
            exchange = context.exchange(tracksDownloadProgress: endpoint.tracksDownloadProgress, destination: .memory)
        case .destination(let destination):
            exchange = context.exchange(tracksDownloadProgress: destination.tracksDownloadProgress, destination: destination.body)
        }
        processing = ResponseProcessing(endpoint: endpoint, context: context)
        keepsTimings = !context.monitors.isEmpty
        if keepsTimings { latest.withLock(annotating: self) { $0.timings = TimingLog(started: startedAt) } }
    }

    /// Prepares the request and makes the first attempt; the promise settles with the call.
    func start() -> Promise<Output> {
        do {
            var prepared = try context.builder.prepare(endpoint)
            if case .destination(let destination) = product {
                for (name, value) in destination.fields { prepared.urlRequest.setValue(value, forHTTPHeaderField: name) }
            }
            context.emit(.started(prepared.summary))
            reportOutcome(of: prepared.summary)
            if hasDeadline, let deadline = context.deadline { enforce(deadline, on: prepared.summary) }
            begin(prepared)
        } catch {
            context.emit(.started(error.request))
            reportOutcome(of: error.request)
            finish(.failure(error), response: nil)
        }
        return outcome
    }

    /// Writes a body too large for memory to its temporary file first, if the call has one, then
    /// makes the first attempt; every attempt sends that file.
    private func begin(_ prepared: PreparedRequest) {
        guard let form = prepared.spool else { return attempt(1, prepared) }
        SpooledBody.write(form, summary: prepared.summary, for: outcome) { [self] written in
            do { attempt(1, prepared.sending(try written.get())) } catch { finish(.failure(error), response: nil) }
        }
    }

    /// Runs the adapters, if there are any, checks the fields they set, then sends.
    private func attempt(_ number: Int, _ prepared: PreparedRequest) {
        guard outcome.isPending else { return }
        if keepsTimings { latest.withLock(annotating: self) { $0.timings?.attemptStarted() } }
        // A retry starts its progress again, visibly: zero of what it sends first, or the bytes
        // of a download it goes on from. The first attempt starts from nothing reported.
        if number > 1 {
            let restart = prepared.body.map { PromiseProgress(completed: 0, total: $0.length, kind: .bytesSent) }
            report(restart ?? exchange.progressBeforeAttempt ?? PromiseProgress(completed: 0, total: nil, kind: .bytesReceived))
        }
        let adapters = context.adapters
        // No adapter: no asynchronous hop and no promise for it.
        guard !adapters.isEmpty else { return send(prepared.urlRequest, attempt: number, prepared) }
        let retries = latest.withLock(annotating: self) { $0.retries }
        let context = AttemptContext(request: prepared.summary, attempt: number, retries: retries)
        Interception.adapt(prepared.urlRequest, by: adapters[...], context: context).whenReady(for: outcome) { [self] result in
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
    }

    /// Sends the attempt's request (asking whether a stored value changed, if the client
    /// revalidates), then processes what comes back.
    private func send(_ adapted: URLRequest, attempt number: Int, _ preparedBefore: PreparedRequest) {
        // Only a decoded value is kept in the store, so only a decoded value is revalidated.
        let (request, prepared) = if case .decoded = product {
            Revalidation.prepare(adapted, preparedBefore, for: endpoint, context: context)
        } else {
            (adapted, preparedBefore)
        }
        latest.withLock(annotating: self) { latest in
            latest.number = number
            latest.request = request
            latest.timings?.adapted()
        }
        let timer = keepsTimings ? TransferTimer() : nil
        context.emit(.attemptStarted(prepared.summary, attempt: number, request: request.carrying(prepared.body)))
        let events = Exchange.Events(
            progress: { [self] in report($0) },
            redirected: { [self] next in latest.withLock(annotating: self) { $0.request = next } },
            completed: { [self] result in
                if let timer {
                    latest.withLock(annotating: self) { $0.timings?.exchanged(transfer: timer.current, answered: (try? result.get()) != nil) }
                }
                switch result {
                case .success(let response): process(response, attempt: number, prepared)
                case .failure(let error): failed(attempt: number, prepared, error: error)
                }
            }
        )
        exchange.send(request, body: prepared.body, summary: prepared.summary, for: outcome, timer: timer, events: events)
    }

    /// Validates the response and makes the call's value of it (decoded by the endpoint, or
    /// made by the destination), then runs the response hooks on the value.
    private func process(_ received: HTTPResponse, attempt number: Int, _ prepared: PreparedRequest) {
        var marked = received
        // A 304 to the call's own conditional request answers with the stored value.
        marked.isRevalidation = received.statusCode == 304 && prepared.revalidation?.stored != nil
        let response = marked
        var prepared = prepared
        if received.statusCode == 401 {
            // A 401 to a request that carried no credentials at all wants different advice.
            let sent = latest.withLock(annotating: self) { $0.request }
            prepared.summary.sentWithoutCredentials = sent.map {
                $0.value(forHTTPHeaderField: "Authorization") == nil && $0.value(forHTTPHeaderField: "Cookie") == nil
            } ?? false
        }
        switch product {
        case .decoded(let output):
            let value: E.Response
            do {
                value = try processing.decode(response, summary: prepared.summary, revalidating: prepared.revalidation?.stored)
            } catch {
                return failed(attempt: number, prepared, error: error)
            }
            keep(value, output(value, response), from: response, prepared)
        case .destination(let destination):
            let value: Output
            do {
                value = try processing.make(response, summary: prepared.summary, destination: destination)
            } catch {
                return failed(attempt: number, prepared, error: error)
            }
            keep(value, value, from: response, prepared)
        }
    }

    /// Hands `value` to the response hooks (and the store), then fulfils the call with `output`.
    private func keep<Value: Sendable>(_ value: Value, _ output: Output, from response: HTTPResponse, _ prepared: PreparedRequest) {
        processing.keep(value, from: response, summary: prepared.summary, revalidation: prepared.revalidation) { [self] kept in
            if keepsTimings { latest.withLock(annotating: self) { $0.timings?.processed() } }
            finish(kept.map { output }, response: response)
        }
    }

    /// An attempt failed: ask the retriers, then retry after their delay or fail the call.
    private func failed(attempt number: Int, _ prepared: PreparedRequest, error: any Error) {
        let summary = prepared.summary
        if keepsTimings { latest.withLock(annotating: self) { $0.timings?.failed() } }
        let retriers = context.retriers
        guard outcome.isPending, !error.isCancellation, !retriers.isEmpty, mayRetry() else {
            return finish(.failure(error), response: nil)
        }
        let (sent, retries) = latest.withLock(annotating: self) { ($0.request, $0.retries) }
        let request = sent ?? prepared.urlRequest
        let context = AttemptContext(request: summary, attempt: number, response: (error as? APIError)?.response, retries: retries)
        Interception.decide(request, failedWith: error, by: retriers[...], context: context).whenReady(for: outcome) { [self] result in
            decided(result, attempt: number, prepared, error: error)
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
        context.emit(.retrying(prepared.summary, attempt: number, error: error, delay: delay, cause: decision.cause))
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

    /// Tells monitors how the call ended (see ``CallReport``).
    private func reportOutcome(of request: RequestSummary) {
        CallReport.attach(to: outcome, of: request, context: context, startedAt: startedAt) { [self] end in
            latest.withLock(annotating: self) { ($0.number, $0.response, $0.timings?.timings(end: end)) }
        }
    }

    /// Settles the call, unless it was cancelled first. A failure after retries says how many
    /// attempts it took, and how long.
    private func finish(_ ending: Result<Output, any Error>, response: HTTPResponse?) {
        let attempts = latest.withLock(annotating: self) { latest in
            // Only monitors read the response back (see `reportOutcome`).
            if let response, !context.monitors.isEmpty { latest.response = response }
            return latest.number
        }
        let result = ending.mapError { ($0 as? APIError)?.after(attempts: attempts, since: startedAt) ?? $0 }
        context.deliver { [outcome] in outcome.settle(result) }
    }

    /// Reports progress. A report equal to the previous one (a transport that tells the end of a
    /// body twice) is left out.
    private func report(_ progress: PromiseProgress) {
        let repeated = latest.withLock(annotating: self) { latest in
            defer { latest.progress = progress }
            return latest.progress == progress
        }
        if !repeated { context.deliver { [outcome] in outcome.report(progress) } }
    }
}
