import BatonOpenSSL

/// The bytes of one server connection: the socket itself for `http`, or TLS over it for `https`.
///
/// Its calls answer as ``Posix`` does for a socket (a count, 0 at the end, `nil` for nothing now),
/// so the connection reads the same code either way. Over TLS, the encrypted bytes of what is
/// sent leave before ``send(_:)`` returns, each wait a `poll` that the server's stop pipe wakes.
final class ConnectionStream {
    let fd: Int32
    private let wake: Int32
    private let timeout: Duration
    private let session: TLSSession?
    private var encrypted = [UInt8](repeating: 0, count: 32 << 10)
    /// Why the last ``flush()`` failed, so that a failed TLS write can say why.
    private var flushFailure: WriteFailure?
    /// Told how many bytes each ``write(_:)`` sends (see there); the connection counts them.
    var onWrite: ((Int) -> Void)?

    /// A plain stream over `fd`.
    init(fd: Int32, wake: Int32, timeout: Duration) {
        self.fd = fd
        self.wake = wake
        self.timeout = timeout
        session = nil
    }

    /// A TLS stream over `fd`, once its handshake is done.
    private init(fd: Int32, wake: Int32, timeout: Duration, session: TLSSession) {
        self.fd = fd
        self.wake = wake
        self.timeout = timeout
        self.session = session
    }

    /// Runs the server's side of the handshake within `timeout`: the stream, or why not.
    static func handshake(fd: Int32, wake: Int32, timeout: Duration, context: TLSContext) -> Result<ConnectionStream, HandshakeFailure> {
        let session: TLSSession
        do {
            session = try TLSSession(server: context)
        } catch {
            return .failure(HandshakeFailure(reason: error.message))
        }
        let stream = ConnectionStream(fd: fd, wake: wake, timeout: timeout, session: session)
        let deadline = ContinuousClock.now + timeout
        while true {
            let step = session.handshake()
            // The server's flight, or its alert, goes out whatever the step's outcome.
            let flushed = stream.flush()
            switch step {
            case .done:
                return flushed ? .success(stream) : .failure(HandshakeFailure(reason: "the client went away"))
            case .failed(let failure):
                return .failure(HandshakeFailure(reason: failure.message))
            case .needsInput:
                guard flushed else { return .failure(HandshakeFailure(reason: "the client went away")) }
                switch Posix.wait(for: fd, wake: wake, until: deadline) {
                case .stopping: return .failure(HandshakeFailure(reason: "the server is stopping"))
                case .timedOut: return .failure(HandshakeFailure(reason: "the client did not finish the handshake within \(timeout)"))
                case .ready: break
                }
                let count = stream.encrypted.withUnsafeMutableBytes { Posix.receive(fd, into: $0) }
                guard let count else { continue }
                guard count > 0 else { return .failure(HandshakeFailure(reason: "the client closed the connection during the handshake")) }
                stream.encrypted.withUnsafeBytes { session.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
        }
    }

    /// Why a handshake did not complete, for the log.
    struct HandshakeFailure: Error {
        let reason: String
    }

    /// The host name the client asked for in its hello (SNI), over TLS.
    var requestedServerName: String? { session?.requestedServerName }

    /// Whether bytes already read off the socket wait here: then the socket must not be polled
    /// before reading.
    var hasBufferedInput: Bool { session?.hasBufferedInput ?? false }

    /// Reads what is there now: the count read, 0 at the end of the stream, `nil` if it would
    /// block, -1 on an error.
    func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard let session else { return Posix.receive(fd, into: buffer) }
        while true {
            switch session.read(into: buffer) {
            case .read(let count): return count
            case .closed: return 0
            case .failed: return -1
            case .needsInput:
                guard flush() else { return -1 }
                let count = encrypted.withUnsafeMutableBytes { Posix.receive(fd, into: $0) }
                guard let count, count > 0 else { return count }
                encrypted.withUnsafeBytes { session.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
        }
    }

    /// Sends what the socket takes now (plain), or all of `bytes` up to one TLS record's worth,
    /// encrypted and sent (TLS): the count taken, 0 if it would block, -1 when the peer is gone.
    func send(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard let session else { return Posix.send(fd, bytes) }
        let piece = UnsafeRawBufferPointer(rebasing: bytes.prefix(16 << 10))
        do {
            try session.write(piece)
        } catch {
            return -1
        }
        return flush() ? piece.count : -1
    }

    /// Why a write did not complete.
    enum WriteFailure: Error, Equatable {
        /// The client closed or reset the connection.
        case peerGone
        /// The client took no byte for a whole timeout: it stopped reading.
        case timedOut
        /// The server's stop pipe fired.
        case stopping
    }

    /// Writes all of `bytes`, waiting for room as needed, each wait bounded by the timeout and
    /// woken by the stop pipe: nil once every byte went, otherwise why not.
    ///
    /// Every response the connection writes comes through here, so this is where it is counted, by
    /// ``onWrite``: the whole write before it begins, so that a client that has read the bytes
    /// finds them counted, then, if it fails, minus what did not go.
    func write(_ bytes: ArraySlice<UInt8>) -> WriteFailure? {
        onWrite?(bytes.count)
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            flushFailure = nil
            let sent = bytes[offset...].withUnsafeBytes { send($0) }
            let failure = sent < 0 ? flushFailure ?? .peerGone : sent == 0 ? waitForRoom() : nil
            if let failure {
                onWrite?(offset - bytes.endIndex)
                return failure
            }
            offset += sent
        }
        return nil
    }

    /// Tells the client the connection closes (`close_notify`), if the socket takes it.
    func closeNotify() {
        session?.close()
        _ = flush()
    }

    /// Sends every encrypted byte waiting, waiting for room as needed; `false` when the client
    /// went away, stopped reading for a whole timeout, or the server is stopping.
    private func flush() -> Bool {
        guard let session else { return true }
        while true {
            let count = encrypted.withUnsafeMutableBytes { session.takeOutput(into: $0) }
            guard count > 0 else { return true }
            var offset = 0
            while offset < count {
                let sent = encrypted.withUnsafeBytes { Posix.send(fd, UnsafeRawBufferPointer(rebasing: $0[offset..<count])) }
                if sent < 0 {
                    flushFailure = .peerGone
                    return false
                }
                if sent == 0, let failure = waitForRoom() {
                    flushFailure = failure
                    return false
                }
                offset += sent
            }
        }
    }

    /// Waits until the socket takes more bytes: nil when it does, otherwise why it will not.
    private func waitForRoom() -> WriteFailure? {
        switch Posix.wait(for: fd, writable: true, wake: wake, until: .now + timeout) {
        case .ready: nil
        case .timedOut: .timedOut
        case .stopping: .stopping
        }
    }
}
