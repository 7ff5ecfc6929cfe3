import BatonSupport

/// The connection threads of one server: started, finished, joined.
final class ConnectionRegistry: Sendable {
    private struct State: Sendable {
        var running: [Int: ServerThread] = [:]
        var finished: [ServerThread] = []
        var nextID = 0
        var closed = false
    }

    private let maxConnections: Int
    private let state = Locked(State())

    init(maxConnections: Int) {
        self.maxConnections = maxConnections
    }

    /// Runs `serve` on a new thread that owns `fd`; closes `fd` at once when the server is at its
    /// connection limit or no thread can be made.
    func start(fd: Int32, serve: @escaping @Sendable () -> Void) {
        // The lock is held across thread creation so that a thread that ends at once still finds
        // itself in `running`.
        state.withLock { state in
            guard !state.closed, state.running.count < maxConnections else {
                Posix.closeDescriptor(fd)
                return
            }
            let id = state.nextID
            state.nextID += 1
            HTTPServer.runningThreads.withLock { $0 += 1 }
            do {
                state.running[id] = try ServerThread.start { [self] in
                    serve()
                    self.state.withLock { state in
                        if let thread = state.running.removeValue(forKey: id) { state.finished.append(thread) }
                    }
                }
            } catch {
                HTTPServer.runningThreads.withLock { $0 -= 1 }
                Posix.closeDescriptor(fd)
            }
        }
    }

    /// Joins the threads that have finished serving.
    func joinFinished() {
        let finished = state.withLock { state in
            defer { state.finished.removeAll() }
            return state.finished
        }
        join(finished)
    }

    /// Joins every thread, running or finished. The caller must first have made them return (the
    /// server's wake pipe) and stopped starting new ones.
    func joinAll() {
        let threads = state.withLock { state in
            state.closed = true
            defer {
                state.running.removeAll()
                state.finished.removeAll()
            }
            return Array(state.running.values) + state.finished
        }
        join(threads)
    }

    private func join(_ threads: [ServerThread]) {
        for thread in threads {
            thread.join()
            HTTPServer.runningThreads.withLock { $0 -= 1 }
        }
    }
}
