import BatonSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The POSIX calls the server makes, with the Glibc / Darwin differences in one place.
///
/// Every descriptor made here is close-on-exec and non-blocking; waiting happens in `poll`, never in
/// a blocking read or write, so every wait can also be woken by the server's stop pipe.
enum Posix {
    /// How many descriptors the server has open, across every server in the process: sockets,
    /// wake pipes and temporary body files, counted where they are made and in
    /// ``closeDescriptor(_:)``. A stopped server leaves it where it found it.
    static let openDescriptors = Locked(0)

    /// Counts `fd` as open, if it is a descriptor (not -1), and hands it back.
    static func counted(_ fd: Int32) -> Int32 {
        if fd >= 0 { openDescriptors.withLock { $0 += 1 } }
        return fd
    }

    /// What a wait on a descriptor ended with.
    enum WaitResult: Equatable {
        case ready
        case timedOut
        /// The server's wake pipe became readable: the server is stopping.
        case stopping
    }

    /// Ignores SIGPIPE for the process: a peer that closes early must never kill the host process.
    static func ignoreSIGPIPE() {
        _ = signal(SIGPIPE, SIG_IGN)
    }

    /// A non-blocking TCP socket listening on 127.0.0.1 (never another address), and the port it got.
    static func listenOnLoopback(port: UInt16, backlog: Int32) throws(DemoServerError) -> (fd: Int32, port: UInt16) {
        #if canImport(Glibc)
        let fd = counted(socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0))
        #else
        let fd = counted(socket(AF_INET, SOCK_STREAM, 0))
        #endif
        guard fd >= 0 else { throw DemoServerError(operation: "socket", errno: errno) }
        do throws(DemoServerError) {
            prepare(fd)
            var one: Int32 = 1
            guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
                throw DemoServerError(operation: "setsockopt(SO_REUSEADDR)", errno: errno)
            }
            var address = sockaddr_in()
            #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
            #endif
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
            let bound = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                    bind(fd, generic, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { throw DemoServerError(operation: "bind 127.0.0.1:\(port)", errno: errno) }
            guard listen(fd, backlog) == 0 else { throw DemoServerError(operation: "listen", errno: errno) }
            var actual = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &actual) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
            guard named == 0 else { throw DemoServerError(operation: "getsockname", errno: errno) }
            return (fd, UInt16(bigEndian: actual.sin_port))
        } catch {
            closeDescriptor(fd)
            throw error
        }
    }

    enum AcceptResult {
        /// A new connection's descriptor and its peer as `127.0.0.1:54321`.
        case accepted(fd: Int32, peer: String)
        case nonePending
        /// Out of descriptors (EMFILE) or similar; the listener stays readable.
        case failed
    }

    /// Accepts one pending connection.
    static func accept(on listener: Int32) -> AcceptResult {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = counted(withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                Glibc.accept(listener, $0, &length)
                #else
                Darwin.accept(listener, $0, &length)
                #endif
            }
        })
        guard fd >= 0 else {
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR || errno == ECONNABORTED
                ? .nonePending : .failed
        }
        prepare(fd)
        var one: Int32 = 1
        // Responses go out in one write; Nagle would only add latency to keep-alive exchanges.
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        #if canImport(Darwin)
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let host = UInt32(bigEndian: address.sin_addr.s_addr)
        let peer = "\(host >> 24).\((host >> 16) & 0xff).\((host >> 8) & 0xff).\(host & 0xff):"
            + "\(UInt16(bigEndian: address.sin_port))"
        return .accepted(fd: fd, peer: peer)
    }

    /// A pipe whose read end the server polls beside every socket; one byte written wakes every wait.
    static func makePipe() throws(DemoServerError) -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw DemoServerError(operation: "pipe", errno: errno) }
        prepare(counted(fds[0]))
        prepare(counted(fds[1]))
        return (fds[0], fds[1])
    }

    /// Writes one byte to `fd`, ignoring a full pipe (it is then already readable).
    static func poke(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)
    }

    /// Sends what the socket accepts now: the count sent, 0 if it would block, -1 on a dead peer.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        while true {
            #if canImport(Glibc)
            let sent = Glibc.send(fd, base, bytes.count, Int32(MSG_NOSIGNAL))
            #else
            let sent = Darwin.send(fd, base, bytes.count, 0)
            #endif
            if sent >= 0 { return sent }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -1
        }
    }

    /// Reads what is there now: the count read, 0 at end of stream, nil if it would block, -1 on error.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return -1 }
        while true {
            let count = recv(fd, base, buffer.count, 0)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? nil : -1
        }
    }

    /// Stops sending on `fd` so the peer reads end-of-stream while it may still be sending to us.
    static func shutdownWrite(_ fd: Int32) {
        #if canImport(Glibc)
        _ = shutdown(fd, Int32(SHUT_WR))
        #else
        _ = shutdown(fd, SHUT_WR)
        #endif
    }

    static func closeDescriptor(_ fd: Int32) {
        openDescriptors.withLock { $0 -= 1 }
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #else
        _ = Darwin.close(fd)
        #endif
    }

    /// Waits until `fd` is readable (or writable), the wake pipe fires, or `deadline` passes.
    ///
    /// A `nil` fd waits on the wake pipe alone (an injected delay). Errors and hang-ups on `fd`
    /// count as ready, so the caller's next read or write sees them.
    static func wait(
        for fd: Int32?, writable: Bool = false, wake: Int32, until deadline: ContinuousClock.Instant
    ) -> WaitResult {
        while true {
            let remaining = ContinuousClock.now.duration(to: deadline)
            if remaining <= .zero { return .timedOut }
            let (seconds, attoseconds) = remaining.components
            let millis = min(Int64(Int32.max), seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            var fds = [pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            if let fd {
                fds.append(pollfd(fd: fd, events: Int16(writable ? POLLOUT : POLLIN), revents: 0))
            }
            let count = fds.withUnsafeMutableBufferPointer { buffer in
                poll(buffer.baseAddress, nfds_t(buffer.count), Int32(millis))
            }
            if count < 0 {
                if errno == EINTR { continue }
                return .stopping
            }
            if fds[0].revents != 0 { return .stopping }
            if fds.count > 1, fds[1].revents != 0 { return .ready }
        }
    }

    /// Whether the wake pipe has fired (the server is stopping), without waiting: for loops that
    /// never wait, such as a stream to a client that reads as fast as it is sent.
    static func hasFired(_ wake: Int32) -> Bool {
        var watched = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
        return poll(&watched, 1, 0) > 0
    }

    /// Whether the peer has closed its end: the socket reads as end-of-file (or fails), peeked so
    /// that any bytes waiting stay for the parser.
    static func peerHasClosed(_ fd: Int32) -> Bool {
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
        if count == 0 { return true }
        return count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR
    }

    /// Close-on-exec so a child process (the benchmark's python3) never inherits a socket, and
    /// non-blocking so that every wait is a `poll` that the stop pipe can interrupt.
    private static func prepare(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
}
