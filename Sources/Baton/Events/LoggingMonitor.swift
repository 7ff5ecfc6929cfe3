import Foundation

/// A ``ClientMonitor`` that writes one line per event, secrets redacted: what `redaction` names,
/// and the client's ``Client/Configuration/sensitiveHeaders``.
///
/// ```
/// → GET /orders/1
/// ⇢ GET /orders/1 attempt 1: curl 'http://127.0.0.1:8080/orders/1' -H 'Authorization: <redacted>'
/// ↻ GET /orders/1 attempt 1 failed, retrying in 0.5 seconds: ...
/// ✓ GET /orders/1 200 in 3 ms (1 attempt)
/// ✗ POST /facilities/1/reviews failed after 1 attempt: the server answered 422 ...
/// ```
public struct LoggingMonitor: ClientMonitor {
    private let write: @Sendable (String) -> Void
    private let redaction: Redaction
    private let showsAttempts: Bool

    /// - Parameters:
    ///   - redaction: What to hide.
    ///   - showsAttempts: Whether to log each attempt as a `curl` command line.
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
    /// names and `client`'s sensitive headers.
    public func receive(_ event: ClientEvent, from client: Client) {
        let redaction = self.redaction.hiding(headers: client.configuration.sensitiveHeaders)
        switch event {
        case .started(let request):
            write("→ \(request)")
        case .attemptStarted(let request, let attempt, let urlRequest):
            if showsAttempts { write("⇢ \(request) attempt \(attempt): \(urlRequest.curlCommand(redaction: redaction))") }
        case .retrying(let request, let attempt, let error, let delay):
            write("↻ \(request) attempt \(attempt) failed, retrying in \(delay): \(error)")
        case .succeeded(let request, let response, let attempts, let duration):
            write("✓ \(request) \(response.statusCode) in \(Self.milliseconds(duration)) ms (\(Self.plural(attempts, "attempt")))")
        case .failed(let request, let error, let attempts, _):
            write("✗ \(request) failed after \(Self.plural(attempts, "attempt")): \(error)")
        }
    }

    private static func milliseconds(_ duration: Duration) -> Int {
        Int((duration.timeInterval * 1000).rounded())
    }

    private static func plural(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
