/// What a client's monitors hear of a call's end: ``ClientEvent/Kind/succeeded`` with the response
/// that fulfilled it, or ``ClientEvent/Kind/failed`` with the error (a cancellation as
/// ``APIError/Kind/cancelled``), each with the attempts made and the time taken.
enum CallReport {
    /// Tells `client`'s monitors how `call` ended, from the call's first handler: so exactly once,
    /// exactly as it settled (a cancellation included, whatever the call was doing), and before
    /// any handler of the caller's runs. `latest` reads the attempts made and the response that
    /// fulfilled the call. Without monitors there is nothing to tell, and nothing is added.
    static func attach<Output>(
        to call: Promise<Output>, of request: RequestSummary, client: Client, startedAt: ContinuousClock.Instant,
        latest: @escaping @Sendable () -> (attempts: Int, response: HTTPResponse?)
    ) {
        guard !client.configuration.monitors.isEmpty else { return }
        call.observeSettlement { event in
            guard case .settled(let settled) = event else { return }
            let (attempts, response) = latest()
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
}
