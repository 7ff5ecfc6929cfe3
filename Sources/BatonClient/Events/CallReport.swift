/// What a client's monitors hear of a call's end: ``ClientEvent/Kind/succeeded`` with the response
/// that fulfilled it, or ``ClientEvent/Kind/failed`` with the error (a cancellation as
/// ``APIError/Kind/cancelled``), each with the attempts made, the time taken and where it went.
import BatonPromise
enum CallReport {
    /// Tells the client's monitors how `call` ended, from the call's first handler: so exactly once,
    /// exactly as it settled (a cancellation included, whatever the call was doing), and before
    /// any handler of the caller's runs. `latest` reads the attempts made, the response that
    /// fulfilled the call, and its timings ended at the moment given. Without monitors there is
    /// nothing to tell, and nothing is added.
    static func attach<Output>(
        to call: Promise<Output>, of request: RequestSummary, context: CallContext, startedAt: ContinuousClock.Instant,
        latest: @escaping @Sendable (_ end: ContinuousClock.Instant) -> (attempts: Int, response: HTTPResponse?, timings: CallTimings?)
    ) {
        guard !context.monitors.isEmpty else { return }
        call.observeSettlement { event in
            guard case .settled(let settled) = event else { return }
            let end = ContinuousClock.now
            let (attempts, response, timings) = latest(end)
            let duration = end - startedAt
            switch Promise<Output>.result(of: settled) {
            case .success:
                if let response { context.emit(.succeeded(request, response: response, attempts: attempts, duration: duration, timings: timings)) }
            case .failure(let error):
                let reported = error is CancellationError ? APIError.cancelled(request) : error
                context.emit(.failed(request, error: reported, attempts: attempts, duration: duration, timings: timings))
            }
        }
    }
}
