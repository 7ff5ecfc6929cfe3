import BatonSupport
import Foundation

/// One connection of a ``ConnectionPool``: a thread that carries requests one at a time, keeping
/// its socket open between them while the server allows.
///
/// This object is what the pool holds while the connection idles: the pool hands it the next
/// request (or `nil`: close) and wakes its thread. The socket and the buffers belong to the
/// thread alone (a ``WireConnection``).
final class Connection: Sendable {
    private let wake = DispatchSemaphore(value: 0)
    private let handoff: Lock<InFlightRequest?>

    /// A connection whose first request, `first`, waits in its hand-off slot: the thread takes it
    /// from there, so that its closure holds no request for the connection's life.
    private init(first: InFlightRequest) {
        handoff = Lock(first)
    }

    /// Starts a connection of `pool` on a thread of its own, carrying `first`, then whatever the
    /// pool gives it, until the pool lets it close.
    static func start(in pool: ConnectionPool, number: Int, first: InFlightRequest) {
        let connection = Connection(first: first)
        let thread = Thread {
            var wire = WireConnection(pool: pool, number: number)
            var next = connection.takeHandoff().map(ConnectionPool.Next.carry) ?? .close
            loop: while true {
                switch next {
                case .carry(let request):
                    next = carry(request, on: &wire, of: connection, in: pool)
                case .idle:
                    // Nothing of the last request is in reach here: its response (a download
                    // into memory, say) goes when its caller lets it go, not when this wakes.
                    next = pool.awaitHandoff(for: connection)
                case .close:
                    break loop
                }
            }
            wire.close(because: pool.isClosed ? "its transport was released" : "it idled for \(pool.configuration.idleTimeout)", politely: true)
        }
        thread.name = "Baton.HTTP1Transport \(pool.host):\(pool.port)"
        // Handlers of small responses run here (decoding included): room for deep JSON, while
        // far below the default's 8 MiB of address space.
        thread.stackSize = 2 << 20
        thread.start()
    }

    /// Carries `request` on `wire` and settles it, the connection back in `pool` first (so that
    /// a next request sent from the caller's handler finds it idle, rather than opening another):
    /// what the connection does next. The request and its result are this function's alone, so
    /// they are released when it returns.
    private static func carry(_ request: InFlightRequest, on wire: inout WireConnection, of connection: Connection, in pool: ConnectionPool) -> ConnectionPool.Next {
        let result = wire.carry(request)
        return pool.next(for: connection) { request.finish(result) }
    }

    /// Gives the idling connection `request`, or `nil` to close it, and wakes it. Called by
    /// whoever took it off the pool's idle list, once.
    func hand(_ request: InFlightRequest?) {
        handoff.withLock(annotating: self) { $0 = request }
        wake.signal()
    }

    /// Waits until something is handed over; `false` when `timeout` passed first.
    @discardableResult
    func waitForHandoff(timeout: Duration?) -> Bool {
        guard let timeout else {
            wake.wait()
            return true
        }
        return wake.wait(timeout: .now() + timeout.dispatchInterval) == .success
    }

    /// What was handed over, taken.
    func takeHandoff() -> InFlightRequest? {
        handoff.withLock(annotating: self) { slot in
            defer { slot = nil }
            return slot
        }
    }
}
