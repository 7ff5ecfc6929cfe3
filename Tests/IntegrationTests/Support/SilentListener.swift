@testable import DemoServer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// Accepts the next connection, waiting up to `timeout` for one; the caller closes it with
    /// `Posix.closeDescriptor`.
    func acceptOne(timeout: Duration) -> Int32? {
        guard Self.waitReadable(fd, timeout: timeout), case .accepted(let connection, _) = Posix.accept(on: fd) else { return nil }
        return connection
    }

    /// Reads what the client sent on `connection`, waiting up to `timeout`: the count, 0 when the
    /// client closed it, `nil` when it sent nothing in time.
    func read(from connection: Int32, timeout: Duration) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while Self.waitReadable(connection, timeout: timeout) {
            if let count = buffer.withUnsafeMutableBytes({ Posix.receive(connection, into: $0) }) { return max(count, 0) }
        }
        return nil
    }

    private static func waitReadable(_ fd: Int32, timeout: Duration) -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, Int32(timeout.components.seconds * 1000)) > 0
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
