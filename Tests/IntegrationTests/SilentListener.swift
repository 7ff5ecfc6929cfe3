@testable import DemoServer

/// A TCP listener on loopback that never answers, standing in for a server of another protocol
/// (FTP, gopher) that a redirect might point at: it counts the connections that reached it.
final class SilentListener {
    let port: UInt16
    private let fd: Int32

    init() throws {
        (fd, port) = try Posix.listenOnLoopback(port: 0, backlog: 8)
    }

    deinit {
        Posix.closeDescriptor(fd)
    }

    /// Accepts and closes every connection waiting now; returns how many there were.
    func takeConnections() -> Int {
        var count = 0
        while case .accepted(let connection, _) = Posix.accept(on: fd) {
            Posix.closeDescriptor(connection)
            count += 1
        }
        return count
    }
}
