import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Something that happened to a call made through a ``Client``.
public enum ClientEvent: Sendable {
    /// A call was made (once per ``Client/send(_:)``).
    case started(RequestSummary)
    /// An attempt is about to be sent, after the adapters ran: `request` is exactly what goes
    /// on the wire, its body in `httpBody` (except a body streamed from a file).
    case attemptStarted(RequestSummary, attempt: Int, request: URLRequest)
    /// An attempt failed and a retrier asked for another after `delay`.
    case retrying(RequestSummary, attempt: Int, error: any Error, delay: Duration)
    /// The call succeeded with `response` after `attempts` attempts.
    case succeeded(RequestSummary, response: HTTPResponse, attempts: Int, duration: Duration)
    /// The call failed for good (a cancellation included) after `attempts` attempts (0 when the
    /// request could not be built, so nothing was sent).
    case failed(RequestSummary, error: any Error, attempts: Int, duration: Duration)

    /// The call the event is about.
    public var request: RequestSummary {
        switch self {
        case .started(let request), .attemptStarted(let request, _, _), .retrying(let request, _, _, _),
             .succeeded(let request, _, _, _), .failed(let request, _, _, _):
            return request
        }
    }
}
