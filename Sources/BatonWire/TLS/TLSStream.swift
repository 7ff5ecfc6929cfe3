import BatonOpenSSL
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A TLS connection over a ``Socket``: the handshake, then plain bytes in and out, moved through
/// OpenSSL's buffers a bounded piece at a time, every wait the socket's own (so a cancel, which
/// shuts the socket down, ends any of them at once).
///
/// Bytes decrypted to tell whether the server has answered (``hasResponseWaiting()``) are kept and
/// read first. A server that closes without `close_notify` ends the stream too, but
/// ``endedWithCloseNotify`` tells the two apart: where HTTP's own framing (a length, the last
/// chunk) cannot tell a whole response from a cut one, a body that runs until the close, only the
/// server's `close_notify` proves nobody on the path cut it.
package final class TLSStream {
    package let session: TLSSession
    package let socket: Socket
    /// Names the server in failures, as `host:port`.
    package let server: String
    /// Encrypted bytes read from the socket, on their way into the session.
    private var incoming = [UInt8](repeating: 0, count: 32 << 10)
    /// Encrypted bytes taken from the session, on their way to the socket.
    private var outgoing = [UInt8](repeating: 0, count: 32 << 10)
    /// Plain bytes read ahead by ``hasResponseWaiting()``, and where it decrypts them.
    private var readAhead: [UInt8] = []
    private var lookAhead = [UInt8](repeating: 0, count: 16 << 10)
    private var readAheadStart = 0
    /// The server closed the connection (`close_notify`, or the socket's end).
    private var ended = false
    /// The server's `close_notify` arrived: the stream ended as TLS says a whole one does.
    package private(set) var endedWithCloseNotify = false
    /// What reading ahead ran into, thrown by the next read.
    private var failure: URLError?

    private init(session: TLSSession, socket: Socket, server: String) {
        self.session = session
        self.socket = socket
        self.server = server
    }

    /// Runs the handshake over `socket` within `timeout`, as `setup` says: the stream, or a
    /// `URLError` saying what went wrong (a certificate refused, no version in common, a server
    /// silent for too long).
    package static func handshake(over socket: Socket, host canonical: CanonicalHost, port: Int, setup: TLSSetup, timeout: Duration) throws(URLError) -> TLSStream {
        let server = "\(canonical.uriForm):\(port)"
        // The name OpenSSL checks the certificate for and sends as SNI is the one the socket
        // was connected to: the canonical one, which holds no NUL to cut it short.
        let host = canonical.name
        let session: TLSSession
        do {
            session = try TLSSession(client: setup.context, host: host)
        } catch {
            throw URLError(.secureConnectionFailed, detail: "the TLS connection to \(server) could not be set up: \(error.message)")
        }
        let stream = TLSStream(session: session, socket: socket, server: server)
        let deadline = ContinuousClock.now + timeout
        while true {
            let step = session.handshake()
            // The client's flight (its hello, its finished) goes out whatever the step's outcome:
            // an alert about a refused certificate included.
            _ = try? stream.flush(timeout: max(deadline - .now, .milliseconds(1)))
            switch step {
            case .done:
                try setup.check(session, host: host, server: server)
                return stream
            case .failed(let failure):
                throw TLSRefusal.error(for: failure, session: session, host: host, server: server, minimumVersion: setup.minimumVersion)
            case .needsInput:
                let remaining = deadline - .now
                guard remaining > .zero else { throw handshakeTimeout(server, timeout) }
                let read = stream.incoming.withUnsafeMutableBytes { bytes in
                    Result { () throws(URLError) in try socket.read(into: bytes, timeout: remaining) }
                }
                if case .failure(let error) = read, error.code == .timedOut { throw handshakeTimeout(server, timeout) }
                let count = try read.get()
                guard count > 0 else {
                    throw URLError(.secureConnectionFailed, detail:
                        "\(server) closed the connection during the TLS handshake (is it an https port? a plain http server does this)")
                }
                stream.incoming.withUnsafeBytes { session.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
        }
    }

    private static func handshakeTimeout(_ server: String, _ timeout: Duration) -> URLError {
        URLError(.timedOut, detail: "the TLS handshake with \(server) did not finish within \(timeout)")
    }

    /// Reads plain bytes into `buffer`, waiting up to `timeout` for the server: the count read,
    /// 0 at the end of the stream.
    package func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) throws(URLError) -> Int {
        if readAheadStart < readAhead.count {
            let count = min(buffer.count, readAhead.count - readAheadStart)
            readAhead.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[readAheadStart..<readAheadStart + count])) }
            readAheadStart += count
            if readAheadStart == readAhead.count { readAhead.removeAll(keepingCapacity: true); readAheadStart = 0 }
            return count
        }
        if let failure { throw failure }
        if ended { return 0 }
        while true {
            switch session.read(into: buffer) {
            case .read(let count):
                return count
            case .closed:
                ended = true
                endedWithCloseNotify = true
                return 0
            case .failed(let failure):
                throw URLError(.secureConnectionFailed, detail: "the TLS connection to \(server) failed: \(failure.message)")
            case .needsInput:
                // A reply the session owes (to a key update) goes before waiting.
                try flush(timeout: timeout)
                let count = try incoming.withUnsafeMutableBytes { bytes in
                    Result { () throws(URLError) in try socket.read(into: bytes, timeout: timeout) }
                }.get()
                guard count > 0 else {
                    ended = true
                    return 0
                }
                incoming.withUnsafeBytes { session.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            }
        }
    }

    /// Reads the plain bytes that have arrived into `buffer` without waiting: the count read, 0
    /// at the end of the stream, `nil` when nothing has arrived.
    package func readNow(into buffer: UnsafeMutableRawBufferPointer) throws(URLError) -> Int? {
        guard hasResponseWaiting() else { return nil }
        // Something is read ahead, or the stream ended or failed: `read` returns without a wait.
        return try read(into: buffer, timeout: .zero)
    }

    /// Encrypts and sends all of `bytes`; with `answered`, asked whenever the server has sent
    /// something while the socket cannot take more, stops as soon as it says the server has
    /// answered, and returns `false`.
    package func write(_ bytes: UnsafeRawBufferPointer, timeout: Duration, until answered: (() -> Bool)?) throws(URLError) -> Bool {
        do {
            try session.write(bytes)
        } catch {
            throw URLError(.secureConnectionFailed, detail: "the TLS connection to \(server) failed: \(error.message)")
        }
        return try flush(timeout: timeout, until: answered)
    }

    /// Sends the encrypted bytes waiting in the session.
    @discardableResult
    private func flush(timeout: Duration, until answered: (() -> Bool)? = nil) throws(URLError) -> Bool {
        while true {
            let count = outgoing.withUnsafeMutableBytes { session.takeOutput(into: $0) }
            guard count > 0 else { return true }
            let complete = try outgoing.withUnsafeBytes { bytes in
                Result { () throws(URLError) in
                    try socket.write(UnsafeRawBufferPointer(rebasing: bytes[0..<count]), timeout: timeout,
                                     until: answered)
                }
            }.get()
            if !complete { return false }
        }
    }

    /// Whether the server has sent a byte of a response, or closed the connection: reads what has
    /// arrived without waiting, and decrypts it. Messages that carry no data (a TLS 1.3 session
    /// ticket) are taken in and answer `false`.
    package func hasResponseWaiting() -> Bool {
        if readAheadStart < readAhead.count || ended || failure != nil { return true }
        while true {
            switch lookAhead.withUnsafeMutableBytes({ session.read(into: $0) }) {
            case .read(let count):
                readAhead.append(contentsOf: lookAhead[0..<count])
                return true
            case .closed:
                ended = true
                endedWithCloseNotify = true
                return true
            case .failed(let failure):
                self.failure = URLError(.secureConnectionFailed, detail: "the TLS connection to \(server) failed: \(failure.message)")
                return true
            case .needsInput:
                let read = incoming.withUnsafeMutableBytes { bytes in
                    Result { () throws(URLError) in try socket.readNow(into: bytes) }
                }
                switch read {
                case .failure(let error):
                    failure = error
                    return true
                case .success(nil):
                    return false
                case .success(0):
                    ended = true
                    return true
                case .success(let count?):
                    incoming.withUnsafeBytes { session.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                }
            }
        }
    }

    /// Tells the server the connection is closing, if the socket takes it at once.
    package func sendCloseNotify() {
        session.close()
        _ = try? flush(timeout: .milliseconds(10))
    }

    /// The version, cipher and application protocol agreed, as in `TLSv1.3, TLS_AES_256_GCM_SHA384, http/1.1`.
    package var summary: String {
        let agreed = session.negotiated
        return [agreed.version, agreed.cipher, agreed.applicationProtocol ?? "no ALPN"].joined(separator: ", ")
    }
}
