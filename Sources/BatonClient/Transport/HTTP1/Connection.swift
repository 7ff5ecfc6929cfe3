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
    private let handoff = Lock<InFlightRequest?>(nil)

    /// Starts a connection of `pool` on a thread of its own, carrying `first`, then whatever the
    /// pool gives it, until the pool lets it close.
    static func start(in pool: ConnectionPool, number: Int, first: InFlightRequest) {
        let connection = Connection()
        let thread = Thread {
            var wire = WireConnection(pool: pool, number: number)
            var request: InFlightRequest? = first
            while let current = request {
                let result = wire.carry(current)
                // Back in the pool before the caller hears: a next request sent from the
                // caller's handler finds this connection idle, rather than opening another.
                request = pool.next(for: connection) { current.finish(result) }
            }
            wire.close(because: pool.isClosed ? "its transport was released" : "it idled for \(pool.configuration.idleTimeout)", politely: true)
        }
        thread.name = "Baton.HTTP1Transport \(pool.host):\(pool.port)"
        // Handlers of small responses run here (decoding included): room for deep JSON, while
        // far below the default's 8 MiB of address space.
        thread.stackSize = 2 << 20
        thread.start()
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
