import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise

/// The exchange stage of a call: one attempt's request sent over the transport, each redirect
/// followed (or refused) under the client's ``RedirectPolicy``, and the response held to the size
/// limit. What every transport gets, whichever it is: a transport need not follow redirects or
/// stop at the limit itself to be safe.
///
/// The call waits for each hop's promise, so cancel, pause and resume reach the request on the
/// wire; a call cancelled between two hops sends nothing more. A failure comes back as the
/// ``APIError`` that names it (a transport error, a refused redirect, too many of them, a response
/// over the limit); a cancelled transfer, as ``APIError/Kind/cancelled``.
struct Exchange: Sendable {
    let transport: any Transport
    let redirects: RedirectPolicy
    /// The client's own sensitive header names, stripped with the usual ones from a redirect that
    /// leaves the origin.
    let sensitiveHeaders: Set<String>
    let options: TransferOptions
    /// Where identical `GET`s in flight are joined rather than sent again; `nil` when the
    /// client does not merge them.
    var merger: RequestMerger?

    /// Where an attempt's progress starts: the bytes of a download already in its file, when
    /// the attempt goes on from them; `nil` for nothing yet.
    var progressBeforeAttempt: PromiseProgress? {
        options.destination.file?.progressSoFar
    }

    /// What an exchange tells the call it serves as it goes.
    struct Events: Sendable {
        /// Progress of the hop under way.
        var progress: @Sendable (PromiseProgress) -> Void
        /// A redirect is about to be sent: the request retriers see from now on.
        var redirected: @Sendable (URLRequest) -> Void
        /// The final response, or why there is none. Not called when the call was cancelled between
        /// two hops (it has settled already).
        var completed: @Sendable (Result<HTTPResponse, any Error>) -> Void
    }

    /// Sends `request` with `body` for `call`, following redirects, and tells `events` how it goes.
    /// `timer`, if given, is where the transport marks the moments only it sees.
    func send<Output>(
        _ request: URLRequest, body: TransportBody?, summary: RequestSummary, for call: Promise<Output>, timer: TransferTimer? = nil,
        events: Events
    ) {
        var options = self.options
        options.timer = timer
        var request = request
        options.destination.file?.prepare(&request)
        hop(request, body: body, redirects: 0, summary: summary, options: options, call: call, events: events)
    }

    private func hop<Output>(
        _ request: URLRequest, body: TransportBody?, redirects: Int, summary: RequestSummary, options: TransferOptions,
        call: Promise<Output>, events: Events
    ) {
        let answer = merger?.send(request, body: body, options: options, via: transport) ?? transport.send(request, body: body, options: options)
        call.wait(for: answer)
        answer.subscribe { event in
            switch event {
            case .progress(let progress):
                events.progress(progress)
            case .settled(let settled):
                let limit = options.maximumResponseSize
                let result = Promise<HTTPResponse>.result(of: settled).mapError { Self.apiError($0, summary: summary, limit: limit) }
                guard case .success(let response) = result else { return events.completed(result) }
                // A transport that does not stop at the limit itself is held to it here.
                guard response.body.count <= limit else {
                    // A download is bounded by the limit only when its transport keeps it in memory.
                    let ignored = options.destination.file != nil && response.bodyFile == nil ? transport : nil
                    return events.completed(.failure(APIError.responseTooLarge(summary, limit: limit, ignoringFileBy: ignored)))
                }
                if let resumable = options.destination.file, redirects < RedirectPolicy.maximumRedirects, call.isPending,
                   resumable.startsOver(after: response) {
                    var whole = request
                    resumable.prepare(&whole)
                    return hop(whole, body: body, redirects: redirects + 1, summary: summary, options: options, call: call, events: events)
                }
                guard (300..<400).contains(response.statusCode) else { return events.completed(result) }
                switch self.redirects.step(after: response, to: request, body: body, alsoSensitive: sensitiveHeaders) {
                case .follow(let next, let nextBody):
                    guard redirects < RedirectPolicy.maximumRedirects else {
                        return events.completed(.failure(APIError.transport(summary, URLError(.httpTooManyRedirects))))
                    }
                    // Cancelled between two hops: nothing more goes on the wire.
                    guard call.isPending else { return }
                    events.redirected(next)
                    hop(next, body: nextBody, redirects: redirects + 1, summary: summary, options: options, call: call, events: events)
                case .refuse(let reason):
                    events.completed(.failure(APIError.redirectRefused(summary, response, reason: reason)))
                case .stop:
                    events.completed(result)
                }
            }
        }
    }

    /// The ``APIError`` for what a transport failed with.
    private static func apiError(_ error: any Error, summary: RequestSummary, limit: Int) -> any Error {
        if let refusal = error as? TransportRefusal {
            return APIError.invalidRequest(summary, field: refusal.field, reason: refusal.reason)
        }
        guard let error = error as? URLError else { return error }
        switch error.code {
        case .cancelled: return APIError.cancelled(summary)
        case .dataLengthExceedsMaximum: return APIError.responseTooLarge(summary, limit: limit)
        default: return APIError.transport(summary, error)
        }
    }
}
