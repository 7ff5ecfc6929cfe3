import BatonSupport
import Foundation
import BatonWire

/// The connections of an ``HTTP1Transport`` to one origin (scheme, host, port), and the requests
/// waiting for one.
///
/// A request goes to an idle connection if there is one (the one idle the shortest time, whose
/// socket is the least likely to have been closed by the server), else to a new connection if
/// there are fewer than ``HTTP1Transport/Configuration/maximumConnectionsPerOrigin``, else it
/// waits in line, in order, holding no thread. Each connection runs on a thread of its own and
/// carries one request at a time; a connection idle for
/// ``HTTP1Transport/Configuration/idleTimeout`` closes and its thread ends, so an idle transport
/// holds no thread and uses no CPU.
final class ConnectionPool: Sendable {
    let host: CanonicalHost
    let port: Int
    let configuration: HTTP1Transport.Configuration
    /// The transport's cookies, for every connection of the pool; `nil` when it keeps none.
    let cookies: CookieJar?
    /// What its connections are secured with, for an `https` origin; `nil` for `http`.
    let tls: TLSSetup?
    /// The proxy its connections go through; `nil`: they connect directly.
    let proxy: HTTP1Transport.Proxy?

    private struct State {
        /// Requests waiting for a connection, oldest first, from `head` on.
        var waiting: [InFlightRequest?] = []
        var head = 0
        /// Connections waiting for a request, the most recently idle last.
        var idle: [Connection] = []
        /// Connections open or opening, idle or not.
        var count = 0
        /// The transport is gone: idle connections close, busy ones once the line is empty.
        var isClosed = false
        /// Connections opened so far: the next one's number.
        var opened = 0

        mutating func takeWaiting() -> InFlightRequest? {
            guard head < waiting.count else { return nil }
            defer {
                waiting[head] = nil
                head += 1
                if head == waiting.count || head > 64 && head * 2 > waiting.count {
                    waiting.removeFirst(head)
                    head = 0
                }
            }
            return waiting[head]
        }
    }

    private let state = Lock(State())

    init(host: CanonicalHost, port: Int, configuration: HTTP1Transport.Configuration, cookies: CookieJar?, tls: TLSSetup?, proxy: HTTP1Transport.Proxy?) {
        self.proxy = proxy
        self.host = host
        self.port = port
        self.configuration = configuration
        self.cookies = cookies
        self.tls = tls
    }

    /// Hands `request` to a connection, or queues it.
    func enqueue(_ request: InFlightRequest) {
        enum Action { case hand(Connection), open(number: Int), wait }
        let action: Action = state.withLock(annotating: self) { state in
            if let connection = state.idle.popLast() { return .hand(connection) }
            if state.count < max(1, configuration.maximumConnectionsPerOrigin) {
                state.count += 1
                state.opened += 1
                return .open(number: state.opened)
            }
            state.waiting.append(request)
            return .wait
        }
        switch action {
        case .hand(let connection): connection.hand(request)
        case .open(let number): Connection.start(in: self, number: number, first: request)
        case .wait: break
        }
    }

    /// What a connection does next, once it has finished a request.
    enum Next {
        /// Carry this request.
        case carry(InFlightRequest)
        /// Idle until the pool hands it a request, or its idle timeout passes.
        case idle
        /// Close: the transport is gone, or the connection idled past the idle timeout.
        case close
    }

    /// What `connection`, which has just finished a request, does next: a waiting request at
    /// once, else idle in the pool (``awaitHandoff(for:)``), or close when the transport is
    /// gone. `finished` (settling the request just carried) runs once the connection is back in
    /// the pool, and returns nothing it holds: the connection's thread keeps no response while it
    /// idles.
    func next(for connection: Connection, finished: () -> Void) -> Next {
        let next: Next = state.withLock(annotating: self) { state in
            if let request = state.takeWaiting() { return .carry(request) }
            if state.isClosed {
                state.count -= 1
                return .close
            }
            state.idle.append(connection)
            return .idle
        }
        finished()
        return next
    }

    /// Waits, idle in the pool, for the next request handed to `connection`: ``Next/carry(_:)``,
    /// or ``Next/close`` when it idled for the idle timeout or the transport is gone.
    func awaitHandoff(for connection: Connection) -> Next {
        if connection.waitForHandoff(timeout: configuration.idleTimeout) { return connection.takeHandoff().map(Next.carry) ?? .close }
        // The idle timeout passed; unless someone took the connection meanwhile, it closes.
        let stillIdle = state.withLock(annotating: self) { state in
            guard let index = state.idle.firstIndex(where: { $0 === connection }) else { return false }
            state.idle.remove(at: index)
            state.count -= 1
            return true
        }
        if stillIdle { return .close }
        connection.waitForHandoff(timeout: nil)
        return connection.takeHandoff().map(Next.carry) ?? .close
    }

    /// Whether the transport is gone.
    var isClosed: Bool { state.withLock(annotating: self) { $0.isClosed } }

    /// The transport is gone: idle connections close now, busy ones after the requests waiting.
    func close() {
        let idle = state.withLock(annotating: self) { state in
            state.isClosed = true
            defer { state.idle.removeAll() }
            state.count -= state.idle.count
            return state.idle
        }
        for connection in idle { connection.hand(nil) }
    }
}
