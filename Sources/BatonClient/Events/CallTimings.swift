/// Where one call's time went, phase by phase, from ``Client/send(_:)`` to its end: told with
/// its ``ClientEvent/Kind/succeeded`` and ``ClientEvent/Kind/failed`` events
/// (``ClientEvent/timings``), to clients with monitors.
///
/// The phases follow one another without gaps or overlaps, so they add up to ``total``: a phase
/// the transport cannot see (``HTTP1Transport`` sees them all; URLSession does not tell when it
/// connected) is `nil`, and its time is counted in the next phase that is known.
///
/// ```swift
/// struct SlowCalls: ClientMonitor {
///     func receive(_ event: ClientEvent) {
///         guard let timings = event.timings, timings.total > .seconds(1) else { return }
///         print("\(event.request) was slow: \(timings)")
///     }
/// }
/// ```
public struct CallTimings: Sendable, CustomStringConvertible {
    /// Building the request: its URL, its header fields, its body encoded (a large form written
    /// to its temporary file).
    public let preparing: Duration
    /// Each attempt's phases, the first attempt first.
    public let attempts: [AttemptTimings]
    /// From ``Client/send(_:)`` to the call's end: its promise settling, or its cancellation.
    public let total: Duration

    /// The waits between attempts, together: the retry policy's backoff, a `Retry-After`, the
    /// retriers deciding.
    public var retryWaits: Duration {
        attempts.reduce(.zero) { $0 + ($1.retryWait ?? .zero) }
    }

    /// Every phase, summed over the attempts, as in `total 12.1 ms: prepare 0.1, connect 0.4,
    /// tls 2.3, send 0.1, wait 8.0, receive 0.9, process 0.3` (phases that took no time are left
    /// out; `(2 attempts)` is added after a retry).
    public var description: String {
        var phases: [(String, Duration)] = [("prepare", preparing)]
        func sum(_ phase: (AttemptTimings) -> Duration?) -> Duration { attempts.reduce(.zero) { $0 + (phase($1) ?? .zero) } }
        phases.append(("adapt", sum(\.adapting)))
        phases.append(("connect", sum(\.connecting)))
        phases.append(("tls", sum(\.securing)))
        phases.append(("send", sum(\.sending)))
        phases.append(("wait", sum(\.waiting)))
        phases.append(("receive", sum(\.receiving)))
        phases.append(("process", sum(\.processing)))
        phases.append(("retry waits", retryWaits))
        let shown = phases.filter { $0.1 >= .microseconds(50) }.map { "\($0.0) \(Self.milliseconds($0.1))" }
        let attemptsNote = attempts.count > 1 ? " (\(attempts.count) attempts)" : ""
        return "total \(Self.milliseconds(total)) ms\(attemptsNote)" + (shown.isEmpty ? "" : ": " + shown.joined(separator: ", "))
    }

    /// `12.3`: milliseconds, one decimal.
    static func milliseconds(_ duration: Duration) -> String {
        let tenths = (duration.timeInterval * 10_000).rounded()
        return String(format: "%.1f", tenths / 10)
    }

    init(preparing: Duration, attempts: [AttemptTimings], total: Duration) {
        self.preparing = preparing
        self.attempts = attempts
        self.total = total
    }
}

/// Where one attempt's time went: see ``CallTimings``. A phase is `nil` when the attempt ended
/// before it (a failure, a cancellation) or when the transport cannot see its end; its time is
/// then counted in the next phase known.
public struct AttemptTimings: Sendable {
    /// Running the adapters: adding a token, waiting for a token refresh.
    public let adapting: Duration
    /// Getting a connection: waiting for one of the pool, opening one (the address resolved,
    /// TCP connected), or taking a kept-alive one (see ``reusedConnection``). A redirect's
    /// earlier hops count here too.
    public let connecting: Duration?
    /// The TLS handshake of a new `https` connection.
    public let securing: Duration?
    /// Writing the request, its body included.
    public let sending: Duration?
    /// From the request's last byte to the response's first: the server at work.
    public let waiting: Duration?
    /// Reading the rest of the response.
    public let receiving: Duration?
    /// Validating and decoding the response, saving it to the store, running the response hooks.
    public let processing: Duration?
    /// The wait after this attempt failed, before the next one started; `nil` for the last.
    public let retryWait: Duration?
    /// Whether the attempt went on a kept-alive connection; `nil` when the transport does not say.
    public let reusedConnection: Bool?

    init(
        adapting: Duration, connecting: Duration?, securing: Duration?, sending: Duration?, waiting: Duration?,
        receiving: Duration?, processing: Duration?, retryWait: Duration?, reusedConnection: Bool?
    ) {
        self.adapting = adapting
        self.connecting = connecting
        self.securing = securing
        self.sending = sending
        self.waiting = waiting
        self.receiving = receiving
        self.processing = processing
        self.retryWait = retryWait
        self.reusedConnection = reusedConnection
    }
}
