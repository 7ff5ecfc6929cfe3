import BatonSupport

/// Where a transport marks the moments of one attempt that only it can see: its connection
/// ready (opened, or a kept-alive one taken), the TLS handshake done, the request's last byte
/// written, the response's first byte read. The client turns them into the attempt's phases
/// (``AttemptTimings``); a mark a transport does not make leaves its phase out, its time counted
/// in the next phase marked.
///
/// Each mark keeps its latest moment: a request sent again on a new connection, or a redirect's
/// next hop, marks them anew. A transport of your own marks what it can see, through
/// ``TransferOptions/timer``, which is `nil` when nobody listens (a client without monitors).
public final class TransferTimer: Sendable {
    /// The moments marked so far.
    struct Marks: Sendable {
        var connected: ContinuousClock.Instant?
        var secured: ContinuousClock.Instant?
        var sent: ContinuousClock.Instant?
        var firstByte: ContinuousClock.Instant?
        /// Whether the connection was a kept-alive one, reused; `nil` when not marked.
        var reusedConnection: Bool?
    }

    private let marks = Lock(Marks())

    init() {}

    /// The connection is ready for the request: `reused` when it was kept alive. Clears the marks
    /// of an earlier connection of the same attempt.
    public func connected(reused: Bool) {
        let now = ContinuousClock.now
        marks.withLock(annotating: self) { $0 = Marks(connected: now, reusedConnection: reused) }
    }

    /// The TLS handshake is done.
    public func secured() {
        let now = ContinuousClock.now
        marks.withLock(annotating: self) { $0.secured = now }
    }

    /// The request's last byte was written.
    public func sent() {
        let now = ContinuousClock.now
        marks.withLock(annotating: self) { $0.sent = now }
    }

    /// The response's first byte arrived; only the first call of an exchange counts.
    public func receivedFirstByte() {
        let now = ContinuousClock.now
        marks.withLock(annotating: self) { marks in
            if marks.firstByte == nil || marks.sent.map({ marks.firstByte! < $0 }) == true { marks.firstByte = now }
        }
    }

    /// What was marked.
    var current: Marks { marks.withLock(annotating: self) { $0 } }
}
