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

/// Sees every call of a client, in one place: for logging, metrics, or showing errors centrally
/// instead of at every call site (what source document 002 asks for).
///
/// Monitors are called synchronously on the thread where the event happens, in the order the
/// client lists them, for every event; keep them quick, and hop to your own queue for UI work.
/// A call's `succeeded` or `failed` event is reported exactly once, by the first handler of its
/// promise: after the promise has settled, before any handler of yours runs, so code that awaits
/// the promise finds the event already reported. A cancelled call is reported as `failed` with
/// ``APIError/cancelled(_:)`` as it is cancelled, whether it was sending or waiting to retry.
///
/// ```swift
/// struct ErrorBanner: ClientMonitor {
///     func receive(_ event: ClientEvent, from client: Client) {
///         guard case .failed(_, let error, _, _) = event else { return }
///         if let error = error as? APIError, case .cancelled = error { return }  // not an error to show
///         DispatchQueue.main.async { banner.show(error) }
///     }
/// }
/// ```
public protocol ClientMonitor: Sendable {
    /// Called for every event of every call `client` makes. `client` tells monitors shared by
    /// several clients which one it was, and gives its configuration (its sensitive headers,
    /// for one).
    func receive(_ event: ClientEvent, from client: Client)
}
