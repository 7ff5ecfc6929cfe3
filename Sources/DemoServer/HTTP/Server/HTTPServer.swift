import BatonSupport

/// The listening socket, its accept thread and one thread per connection.
///
/// `stop()` wakes every wait through one pipe, joins the accept thread and then every connection
/// thread, and closes the listening socket and the pipe: when it returns, no descriptor or thread
/// the server made is left.
final class HTTPServer: Sendable {
    /// Threads started by any server and not yet joined; tests check it returns to zero.
    static let runningThreads = Locked(0)

    let port: UInt16
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let connections: ConnectionRegistry
    private let acceptThread: ServerThread
    /// True once `stop()` has begun; held for the whole of `stop()` so concurrent calls wait for it.
    private let stopped = Locked(false)

    init(port: UInt16, maxConnections: Int, settings: ConnectionSettings, handler: any HTTPHandler) throws(DemoServerError) {
        Posix.ignoreSIGPIPE()
        let (listener, actualPort) = try Posix.listenOnLoopback(port: port, backlog: 1024)
        let wake: (read: Int32, write: Int32)
        do {
            wake = try Posix.makePipe()
        } catch {
            Posix.closeDescriptor(listener)
            throw error
        }
        let connections = ConnectionRegistry(maxConnections: maxConnections)
        Self.runningThreads.withLock { $0 += 1 }
        do {
            acceptThread = try ServerThread.start {
                Self.acceptLoop(listener: listener, wake: wake.read, connections: connections,
                                settings: settings, handler: handler)
            }
        } catch {
            Self.runningThreads.withLock { $0 -= 1 }
            Posix.closeDescriptor(listener)
            Posix.closeDescriptor(wake.read)
            Posix.closeDescriptor(wake.write)
            throw error
        }
        self.port = actualPort
        self.listener = listener
        self.wake = wake
        self.connections = connections
    }

    deinit {
        stop()
    }

    func stop() {
        stopped.withLock { stopped in
            guard !stopped else { return }
            stopped = true
            Posix.poke(wake.write)
            acceptThread.join()
            Self.runningThreads.withLock { $0 -= 1 }
            // No thread can start now: only the accept thread starts them.
            connections.joinAll()
            Posix.closeDescriptor(listener)
            Posix.closeDescriptor(wake.read)
            Posix.closeDescriptor(wake.write)
        }
    }

    private static func acceptLoop(
        listener: Int32, wake: Int32, connections: ConnectionRegistry, settings: ConnectionSettings,
        handler: any HTTPHandler
    ) {
        while true {
            connections.joinFinished()
            // The one-second timeout only bounds how long finished threads wait to be joined.
            switch Posix.wait(for: listener, wake: wake, until: .now + .seconds(1)) {
            case .stopping:
                return
            case .timedOut:
                continue
            case .ready:
                accepting: while true {
                    switch Posix.accept(on: listener) {
                    case .accepted(let fd, let peer):
                        handler.recordConnection()
                        connections.start(fd: fd) {
                            Connection(fd: fd, peer: peer, wake: wake, settings: settings, handler: handler).run()
                        }
                    case .nonePending:
                        break accepting
                    case .failed:
                        // Out of descriptors, say: the listener stays readable, so back off instead of
                        // spinning until a connection closes.
                        if Posix.wait(for: nil, wake: wake, until: .now + .milliseconds(50)) == .stopping { return }
                        break accepting
                    }
                }
            }
        }
    }
}
