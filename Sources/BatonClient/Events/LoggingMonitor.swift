import Foundation
import BatonWire

/// A ``ClientMonitor`` that writes one line per event, secrets redacted: what `redaction` names,
/// what the client's ``Client/Configuration/redaction`` names, and the client's
/// ``Client/Configuration/sensitiveHeaders``, in every line (errors included). Text a server sent
/// is escaped, so that it cannot forge a line of its own.
///
/// ```
/// → GET http://127.0.0.1:8080/orders/1
/// ⇢ GET http://127.0.0.1:8080/orders/1 attempt 1: curl 'http://127.0.0.1:8080/orders/1' -H 'Authorization: <redacted>'
/// ⇄ connection 1 to 127.0.0.1:8080 opened at 127.0.0.1:8080
/// ↻ GET http://127.0.0.1:8080/orders/1 attempt 1 failed (transientFailure), retrying in 500 ms: ...
/// ✓ GET http://127.0.0.1:8080/orders/1 200 in 3 ms (1 attempt) [total 3.1 ms: connect 0.2, send 0.1, wait 2.4, receive 0.1, process 0.3]
/// ✗ POST http://127.0.0.1:8080/facilities/1/reviews failed after 1 attempt: the server answered 422 ... [total 2.0 ms: wait 1.8, process 0.2]
/// ```
public struct LoggingMonitor: ClientMonitor {
    private let write: @Sendable (String) -> Void
    private let redaction: Redaction
    private let showsAttempts: Bool

    /// - Parameters:
    ///   - redaction: What to hide.
    ///   - showsAttempts: Whether to log each attempt as a `curl` command line, and each
    ///     connection opened, reused or closed (``ClientEvent/Kind/connection``).
    ///   - write: Where lines go; standard error by default.
    public init(
        redaction: Redaction = .default,
        showsAttempts: Bool = false,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
    ) {
        self.redaction = redaction
        self.showsAttempts = showsAttempts
        self.write = write
    }

    /// Writes the line for `event` (for an attempt, only if `showsAttempts`), hiding what `redaction`
    /// names and what the client hides (its redaction and sensitive headers, which the event's
    /// ``ClientEvent/request`` carries).
    public func receive(_ event: ClientEvent) {
        let redaction = self.redaction.merged(with: event.request.redaction)
        let request = event.request.description(redactedBy: redaction)
        // One event, one line: whatever a server sent, escaped, cannot start a line of its own.
        let write = { (line: String) in self.write(MessageText.escaped(line)) }
        switch event.kind {
        case .started:
            write("→ \(request)")
        case .attemptStarted:
            if showsAttempts, let urlRequest = event.urlRequest {
                write("⇢ \(request) attempt \(event.attempt ?? 1): \(urlRequest.curlCommand(redaction: redaction))")
            }
        case .retrying:
            let cause = event.retryCause.map { " (\($0))" } ?? ""
            write("↻ \(request) attempt \(event.attempt ?? 1) failed\(cause), retrying in \(Self.milliseconds(event.delay ?? .zero)) ms: \(Self.text(of: event.error, redaction))")
        case .succeeded:
            let status = event.response.map { "\($0.statusCode) " } ?? ""
            write("✓ \(request) \(status)in \(Self.milliseconds(event.duration ?? .zero)) ms (\(Self.plural(event.attempts ?? 1, "attempt")))\(Self.text(of: event.timings))")
        case .failed:
            write("✗ \(request) failed after \(Self.plural(event.attempts ?? 0, "attempt")): \(Self.text(of: event.error, redaction))\(Self.text(of: event.timings))")
        case .storeFailed:
            write("! \(request): not saved to the store: \(Self.text(of: event.error, redaction))")
        case .servedFromStore:
            write("↺ \(request) answered from the store: \(Self.text(of: event.error, redaction))")
        case .startedOver:
            write("⟲ \(request) download started over: \(event.reason ?? "")")
        case .connection:
            if showsAttempts, let connection = event.connection { write("⇄ \(connection)") }
        default:
            write("· \(event)")
        }
    }

    /// The error's sentence, hiding what `redaction` names as well as what the client hides.
    private static func text(of error: (any Error)?, _ redaction: Redaction) -> String {
        guard let error else { return "unknown error" }
        guard let apiError = error as? APIError else { return redaction.text("\(error)") }
        return apiError.description(redactedBy: redaction)
    }

    /// The timings at the end of a call's line, as in ` [total 3.1 ms: wait 2.4, ...]`.
    private static func text(of timings: CallTimings?) -> String {
        timings.map { " [\($0)]" } ?? ""
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        duration.roundedMilliseconds
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
