import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sees every call of a client, in one place: for logging, metrics, or showing errors centrally
/// instead of at every call site.
///
/// Monitors are called synchronously on the thread where the event happens, in the order the
/// client lists them, for every event; keep them quick, and hop to your own queue for UI work.
/// A call's `succeeded` or `failed` event is reported exactly once, by the first handler of its
/// promise: after the promise has settled, before any handler of yours runs, so code that awaits
/// the promise finds the event already reported. A cancelled call is reported as `failed` with
/// an ``APIError`` of kind ``APIError/Kind/cancelled`` as it is cancelled, whether it was sending or
/// waiting to retry.
///
/// ```swift
/// struct ErrorBanner: ClientMonitor {
///     func receive(_ event: ClientEvent) {
///         guard event.kind == .failed, let error = event.error else { return }
///         if let error = error as? APIError, error.isCancelled { return }  // not an error to show
///         DispatchQueue.main.async { banner.show(error) }
///     }
/// }
/// ```
public protocol ClientMonitor: Sendable {
    /// Called for every event of every call the client makes. The event's
    /// ``ClientEvent/request`` describes the call with the client's redaction and sensitive
    /// headers, so a monitor shared by several clients hides what each of them hides.
    func receive(_ event: ClientEvent)
}
