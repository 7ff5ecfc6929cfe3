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
    /// How many attempts have started, and whether the outcome was reported to monitors.
    private let progress = Locked<(attempts: Int, reported: Bool)>((0, false))

    init(client: Client, endpoint: E) {
        self.client = client
        self.endpoint = endpoint
    }

    func start() -> Promise<E.Response> {
        do {
            let prepared = try RequestBuilder(configuration: client.configuration).prepare(endpoint)
            client.emit(.started(prepared.summary))
            reportCancellation(of: prepared.summary)
            attempt(1, prepared)
        } catch {
            client.emit(.started(error.request))
            finish(.failure(error), request: error.request, response: nil)
        }
        return outcome
    }

    private func attempt(_ number: Int, _ prepared: PreparedRequest) {
        guard outcome.isPending else { return }
        outcome.report(PromiseProgress(completed: 0))
        let summary = prepared.summary
        let context = AttemptContext(request: summary, attempt: number)
        let exchange = adapt(prepared.urlRequest, context: context)
            .success { [client, endpoint, lastRequest, progress] request -> Promise<(E.Response, HTTPResponse)> in
                try RequestBuilder.validateHeaders(of: request, summary: summary, setBy: " (set by an adapter)")
                lastRequest.withLock { $0 = request }
                progress.withLock { $0.attempts = number }
                client.emit(.attemptStarted(summary, attempt: number, request: Self.onTheWire(request, prepared.body)))
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
        outcome.wait(for: exchange)
        exchange.subscribe { [self] event in
            switch event {
            case .progress(let progress):
                outcome.report(progress)
            case .settled(let settled):
                switch Promise<(E.Response, HTTPResponse)>.result(of: settled) {
                case .success(let (value, response)):
                    finish(.success(value), request: summary, response: response)
                case .failure(let error):
                    failed(attempt: number, prepared, error: error)
                }
            }
        }
    }

    /// `request` with its body in `httpBody`, as monitors are promised: exactly what is sent.
    /// (A file body stays on disk; its `httpBody` stays empty.)
    private static func onTheWire(_ request: URLRequest, _ body: TransportBody?) -> URLRequest {
        guard case .data(let data)? = body else { return request }
        var request = request
        request.httpBody = data
        return request
    }

    /// Runs the adapters in order; without any, no asynchronous hop is made.
    private func adapt(_ request: URLRequest, context: AttemptContext) -> Promise<URLRequest> {
        let adapters = client.configuration.adapters
        guard !adapters.isEmpty else { return Promise(value: request) }
        return Promise {
            var request = request
            for adapter in adapters { request = try await adapter.adapt(request, context: context) }
            return request
        }
    }

    /// An attempt failed: ask the retriers, then retry after their delay or fail the call.
    private func failed(attempt number: Int, _ prepared: PreparedRequest, error: any Error) {
        let summary = prepared.summary
        let retriers = client.configuration.retriers
        guard outcome.isPending, !error.isCancellation, !retriers.isEmpty else {
            return finish(.failure(error), request: summary, response: nil)
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
                return finish(.failure(error), request: summary, response: nil)
            }
            client.emit(.retrying(summary, attempt: number, error: error, delay: delay))
            DispatchQueue.global().asyncAfter(deadline: .now() + delay.dispatchInterval) {
                self.attempt(number + 1, prepared)
            }
        }
    }

    /// Reports a cancellation to monitors when it happens, whatever the call was doing: sending,
    /// waiting for a retrier, or waiting out a retry's delay.
    private func reportCancellation(of request: RequestSummary) {
        outcome.subscribe { [self] event in
            guard case .settled(.rejected(let error)) = event, error.isCancellation else { return }
            report(.failure(APIError.cancelled(request)), request: request, response: nil)
        }
    }

    /// Reports how the call ended, then settles it (unless it was cancelled first), so that
    /// monitors have heard of the outcome before the promise's handlers run.
    private func finish(_ result: Result<E.Response, any Error>, request: RequestSummary, response: HTTPResponse?) {
        guard outcome.isPending else { return }  // cancelled: reported by reportCancellation
        report(result, request: request, response: response)
        outcome.settle(result)
    }

    /// Tells monitors how the call ended, once.
    private func report(_ result: Result<E.Response, any Error>, request: RequestSummary, response: HTTPResponse?) {
        let (attempts, alreadyReported) = progress.withLock { state in
            defer { state.reported = true }
            return (state.attempts, state.reported)
        }
        guard !alreadyReported else { return }
        let duration = ContinuousClock.now - startedAt
        switch result {
        case .success:
            if let response { client.emit(.succeeded(request, response: response, attempts: attempts, duration: duration)) }
        case .failure(let error):
            client.emit(.failed(request, error: error, attempts: attempts, duration: duration))
        }
    }
}
