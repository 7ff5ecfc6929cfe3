import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One ``Client/send(_:)``: its attempts, the retries between them, and its events.
final class Call<E: Endpoint>: Sendable {
    private let client: Client
    private let endpoint: E
    private let outcome = Promise<E.Response>(upstream: nil)
    private let startedAt = ContinuousClock.now
    /// The request of the latest attempt, as sent (after adapters), for retriers.
    private let lastRequest = Locked<URLRequest?>(nil)
    /// How many attempts were sent, and the response that fulfilled the call, for monitors.
    private let progress = Locked<(attempts: Int, response: HTTPResponse?)>((0, nil))

    init(client: Client, endpoint: E) {
        self.client = client
        self.endpoint = endpoint
    }

    func start() -> Promise<E.Response> {
        do {
            let prepared = try client.builder.prepare(endpoint)
            client.emit(.started(prepared.summary))
            reportOutcome(of: prepared.summary)
            attempt(1, prepared)
        } catch {
            client.emit(.started(error.request))
            reportOutcome(of: error.request)
            finish(.failure(error), response: nil)
        }
        return outcome
    }

    private func attempt(_ number: Int, _ prepared: PreparedRequest) {
        guard outcome.isPending else { return }
        outcome.report(PromiseProgress(completed: 0))
        let summary = prepared.summary
        let context = AttemptContext(request: summary, attempt: number)
        let send = { @Sendable [client, endpoint, lastRequest, progress] (request: URLRequest) throws -> Promise<(E.Response, HTTPResponse)> in
            lastRequest.withLock { $0 = request }
            progress.withLock { $0.attempts = number }
            client.emit(.attemptStarted(summary, attempt: number, request: request.carrying(prepared.body)))
            return client.transport.send(request, body: prepared.body).then { result in
                switch result {
                case .success(let response):
                    let decoder = client.configuration.decoder
                    return (try Validation.decode(response, for: endpoint, request: summary, decoder: decoder), response)
                case .failure(let error as URLError) where error.code == .cancelled:
                    throw APIError.cancelled(summary)
                case .failure(let error as URLError):
                    throw APIError.transport(summary, error)
                case .failure(let error):
                    throw error
                }
            }
        }
        let exchange: Promise<(E.Response, HTTPResponse)>
        let adapters = client.configuration.adapters
        if adapters.isEmpty {
            // No adapter, so no asynchronous hop and no extra promise: send at once.
            do { exchange = try send(prepared.urlRequest) } catch { exchange = Promise(error: error) }
        } else {
            exchange = Promise {
                var request = prepared.urlRequest
                for adapter in adapters { request = try await adapter.adapt(request, context: context) }
                try RequestBuilder.validateHeaders(of: request, summary: summary, setBy: " (set by an adapter)")
                return request
            }.success(send)
        }
        outcome.wait(for: exchange)
        exchange.subscribe { [self] event in
            switch event {
            case .progress(let progress):
                outcome.report(progress)
            case .settled(let settled):
                switch Promise<(E.Response, HTTPResponse)>.result(of: settled) {
                case .success(let (value, response)):
                    finish(.success(value), response: response)
                case .failure(let error):
                    failed(attempt: number, prepared, error: error)
                }
            }
        }
    }

    /// An attempt failed: ask the retriers, then retry after their delay or fail the call.
    private func failed(attempt number: Int, _ prepared: PreparedRequest, error: any Error) {
        let summary = prepared.summary
        let retriers = client.configuration.retriers
        guard outcome.isPending, !error.isCancellation, !retriers.isEmpty else {
            return finish(.failure(error), response: nil)
        }
        let request = lastRequest.withLock { $0 } ?? prepared.urlRequest
        let context = AttemptContext(request: summary, attempt: number, response: (error as? APIError)?.response)
        let decision = Promise<RetryDecision> {
            for retrier in retriers {
                let decision = await retrier.retry(request, failedWith: error, context: context)
                if decision != .doNotRetry { return decision }
            }
            return .doNotRetry
        }
        outcome.wait(for: decision)
        decision.subscribe { [self] event in
            guard case .settled(let settled) = event else { return }
            guard case .success(.retry(let delay)) = Promise<RetryDecision>.result(of: settled), outcome.isPending else {
                return finish(.failure(error), response: nil)
            }
            client.emit(.retrying(summary, attempt: number, error: error, delay: delay))
            outcome.wait(for: DelayedStep(after: delay) { self.attempt(number + 1, prepared) })
        }
    }

    /// Tells monitors how the call ended, from the first handler of the call's promise: so
    /// exactly once, exactly as it settled (a cancellation included, whatever the call was doing),
    /// and before any handler of the caller's runs.
    private func reportOutcome(of request: RequestSummary) {
        outcome.subscribe { [client, startedAt, progress] event in
            guard case .settled(let settled) = event else { return }
            let (attempts, response) = progress.withLock { ($0.attempts, $0.response) }
            let duration = ContinuousClock.now - startedAt
            switch Promise<E.Response>.result(of: settled) {
            case .success:
                if let response { client.emit(.succeeded(request, response: response, attempts: attempts, duration: duration)) }
            case .failure(let error):
                let reported = error is CancellationError ? APIError.cancelled(request) : error
                client.emit(.failed(request, error: reported, attempts: attempts, duration: duration))
            }
        }
    }

    /// Settles the call, unless it was cancelled first.
    private func finish(_ result: Result<E.Response, any Error>, response: HTTPResponse?) {
        if let response { progress.withLock { $0.response = response } }
        outcome.settle(result)
    }
}
