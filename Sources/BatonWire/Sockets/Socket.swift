import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connected TCP socket in non-blocking mode, each wait bounded by a timeout with `poll`.
///
/// One thread reads and writes it (a connection's); another may call ``shutdown()`` while the
/// socket is attached to its request (``InFlightRequest``, under that request's lock), which
/// wakes that thread at once (a cancel). Only the owning thread calls ``close()``, after
/// detaching it, so that no other thread can reach the descriptor, or a number reused since.
package struct Socket: Sendable {
    package let descriptor: Int32

    /// Connects to `host`:`port` as ``ConnectionRace`` does: every address `resolver` gives,
    /// IPv6 first, a new attempt every 250 ms while the earlier ones go on, the first to connect
    /// kept, all within `timeout`.
    ///
    /// A cancel (`isCancelled`) is heard within ``ConnectionRace/cancelCheckInterval``.
    ///
    /// - Throws: `URLError` `.cannotFindHost` when the name does not resolve, `.timedOut` when no
    ///   address answered in time, `.cannotConnectToHost` when every address refused,
    ///   `.cancelled` once `isCancelled` says so.
    package static func connect(host: String, port: Int, timeout: Duration, resolver: AddressResolver = .system,
                                isCancelled: () -> Bool = { false }) throws(URLError) -> (socket: Socket, address: ResolvedAddress) {
        let deadline = ContinuousClock.now + timeout
        let addresses = try resolver.resolve(host, port)
        guard deadline > .now else { throw URLError(.timedOut, detail: "resolving \(host) took longer than \(timeout)") }
        return try ConnectionRace(addresses: addresses, server: "\(host.contains(":") ? "[\(host)]" : host):\(port)").run(until: deadline, timeout: timeout, isCancelled: isCancelled)
    }

    /// Starts connecting to `address` without waiting: the socket, and whether it is connected
    /// already (on loopback it may be).
    static func startConnecting(to address: ResolvedAddress) throws(URLError) -> (socket: Socket, connected: Bool) {
        #if canImport(Glibc)
        let descriptor = Glibc.socket(address.family, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = Darwin.socket(address.family, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw URLError(.cannotConnectToHost, detail: "no socket could be made (\(Self.errorText()))") }
        let socket = Socket(descriptor: descriptor)
        socket.configure()
        let started = address.storage.withUnsafeBytes { bytes in
            bytes.withMemoryRebound(to: sockaddr.self) { pointer in
                systemConnect(descriptor, pointer.baseAddress, address.length)
            }
        }
        if started == 0 { return (socket, true) }
        guard errno == EINPROGRESS else {
            let reason = errorText()
            socket.close()
            throw URLError(.cannotConnectToHost, detail: "connecting to \(address) failed (\(reason))")
        }
        return (socket, false)
    }

    /// Why a connect this socket started failed, once `poll` says it is done; `nil` when it
    /// connected.
    var connectFailure: String? {
        var failure: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &size) == 0 else { return Self.errorText() }
        return failure == 0 ? nil : String(cString: strerror(failure))
    }

    /// Non-blocking, no Nagle delay (a request's head and body leave at once), and no SIGPIPE
    /// when the server has gone. Close-on-exec too, so that a child process never inherits the connection.
    private func configure() {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// Reads what has arrived into `buffer`, waiting up to `timeout` for something: the count
    /// read, 0 when the server closed the connection.
    package func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) throws(URLError) -> Int {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: try wait(for: Int16(POLLIN), timeout: timeout)
            case ECONNRESET: throw URLError(.networkConnectionLost, detail: "the server reset the connection")
            default: throw URLError(.networkConnectionLost, detail: "reading failed (\(Self.errorText()))")
            }
        }
    }

    /// Reads what has arrived into `buffer` without waiting: the count read, 0 when the server
    /// closed the connection, `nil` when nothing has arrived.
    package func readNow(into buffer: UnsafeMutableRawBufferPointer) throws(URLError) -> Int? {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count >= 0 { return count }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            case ECONNRESET: throw URLError(.networkConnectionLost, detail: "the server reset the connection")
            default: throw URLError(.networkConnectionLost, detail: "reading failed (\(Self.errorText()))")
            }
        }
    }

    /// Writes all of `bytes`, waiting up to `timeout` each time the socket cannot take more.
    /// With `answered`, asked whenever the server has sent something while the socket cannot
    /// take more: when it says the server has answered (a response that does not wait for the
    /// rest of the body), stops and returns `false`; `true` when all was written.
    @discardableResult
    package func write(_ bytes: UnsafeRawBufferPointer, timeout: Duration, until answered: (() -> Bool)? = nil) throws(URLError) -> Bool {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let count = send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            #else
            let count = send(descriptor, bytes.baseAddress! + offset, bytes.count - offset, 0)
            #endif
            if count >= 0 {
                offset += count
                continue
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK:
                try wait(for: Int16(POLLOUT) | (answered != nil ? Int16(POLLIN) : 0), timeout: timeout)
                if let answered, isReadable, answered() { return false }
            case EPIPE, ECONNRESET: throw URLError(.networkConnectionLost, detail: "the server closed the connection while the request was sent")
            default: throw URLError(.networkConnectionLost, detail: "sending failed (\(Self.errorText()))")
            }
        }
        return true
    }

    /// Whether the server has sent something or closed the connection: on an idle kept-alive
    /// connection, either means it cannot carry another request.
    package var hasInputOrHangUp: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) != 0
    }

    /// Whether the server has answered (or hung up) while the request's body is still going out.
    package var isReadable: Bool { hasInputOrHangUp }

    /// Waits until the socket is ready for `events`, at most `timeout`.
    package func wait(for events: Int16, timeout: Duration) throws(URLError) {
        var entry = pollfd(fd: descriptor, events: events, revents: 0)
        let milliseconds = Int32(clamping: timeout.clampedMilliseconds)
        while true {
            let ready = poll(&entry, 1, max(milliseconds, 1))
            if ready > 0 { return }
            if ready == 0 { throw URLError(.timedOut, detail: "the server sent nothing for \(timeout)") }
            if errno != EINTR { throw URLError(.networkConnectionLost, detail: "waiting on the connection failed (\(Self.errorText()))") }
        }
    }

    /// Stops both directions: a thread blocked on the socket returns at once. Safe from any thread.
    package func shutdown() {
        #if canImport(Glibc)
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
        #else
        _ = Darwin.shutdown(descriptor, SHUT_RDWR)
        #endif
    }

    /// Releases the descriptor. Only the owning thread calls it, once.
    package func close() {
        #if canImport(Glibc)
        _ = Glibc.close(descriptor)
        #else
        _ = Darwin.close(descriptor)
        #endif
    }

    /// The system's words for the last error.
    package static func errorText() -> String {
        String(cString: strerror(errno))
    }
}

#if canImport(Glibc)
private let systemConnect = Glibc.connect
#else
private let systemConnect = Darwin.connect
#endif
