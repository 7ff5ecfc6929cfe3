import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a request is written to and its response read from: a connected socket, through TLS for
/// `https`. The writer and the reader see one kind of byte stream either way.
///
/// While a body goes out, bytes the server sends are read to tell an interim response (`100
/// Continue`, `103 Early Hints`), which the body goes on past, from a final one, which it stops
/// for; what was read of the final response is kept and read first.
package struct Link {
    package let socket: Socket
    /// The TLS connection over `socket`, for `https`.
    package let tls: TLSStream?
    /// Bytes read while the body went out, interim responses taken off: shared by every copy of
    /// the link, on the connection's thread only.
    private let early = EarlyBytes()

    package init(socket: Socket, tls: TLSStream?) {
        self.socket = socket
        self.tls = tls
    }

    /// Reads what has arrived into `buffer`, waiting up to `timeout`: the count read, 0 when
    /// the server closed the connection.
    package func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) throws(URLError) -> Int {
        if let count = early.take(into: buffer) { return count }
        guard let tls else { return try socket.read(into: buffer, timeout: timeout) }
        return try tls.read(into: buffer, timeout: timeout)
    }

    /// Whether the connection ended as its protocol says a whole stream ends: always over plain
    /// TCP; over TLS, only with the server's `close_notify`, as a bare TCP close may have been
    /// forged by anyone on the path (RFC 8446 §6.1).
    package var endedCleanly: Bool { tls?.endedWithCloseNotify ?? true }

    /// Writes all of `bytes`; with `untilResponded`, stops as soon as the server has sent a final
    /// response (``finalResponseWaiting()``) and returns `false`.
    @discardableResult
    package func write(_ bytes: UnsafeRawBufferPointer, timeout: Duration, untilResponded: Bool = false) throws(URLError) -> Bool {
        let answered: (() -> Bool)? = untilResponded ? { self.finalResponseWaiting() } : nil
        guard let tls else { return try socket.write(bytes, timeout: timeout, until: answered) }
        return try tls.write(bytes, timeout: timeout, until: answered)
    }

    /// Whether the server has sent a final response (or hung up, or failed) while the request's
    /// body is still going out. Interim responses that arrived are read and dropped; the beginning
    /// of a response not yet whole enough to tell is kept, and the body goes on.
    package func finalResponseWaiting() -> Bool {
        if early.hasEnded { return true }
        while true {
            switch InterimResponse.read(early.waiting) {
            case .interim(let length):
                early.drop(length)
                continue
            case .final:
                return true
            case .incomplete:
                break
            }
            guard hasResponseWaiting else { return false }
            do {
                let count = try early.fill { buffer throws(URLError) in
                    guard let tls else { return try socket.readNow(into: buffer) }
                    return try tls.readNow(into: buffer)
                }
                guard let count else { return false }
                if count == 0 { return true }
            } catch {
                // The reader meets the failure again, and says what it was.
                return true
            }
        }
    }

    /// Whether the server has sent something (or hung up) since the link last looked.
    private var hasResponseWaiting: Bool {
        guard let tls else { return socket.isReadable }
        return tls.hasResponseWaiting()
    }

    /// Whether an idle kept-alive connection cannot carry another request: the server sent
    /// something unasked, or closed it.
    package var isStale: Bool {
        if early.hasBytes || early.hasEnded { return true }
        guard let tls else { return socket.hasInputOrHangUp }
        return tls.hasResponseWaiting()
    }

    /// Closes the connection; over TLS, tells the server first (`close_notify`) when `politely`.
    package func close(politely: Bool) {
        if politely { tls?.sendCloseNotify() }
        socket.close()
    }
}

/// The bytes of a response read early, while its request's body went out.
private final class EarlyBytes {
    private var bytes: [UInt8] = []
    private var start = 0
    private var scratch = [UInt8](repeating: 0, count: 4096)
    /// The server closed the connection, or reading it failed, after `bytes`.
    package private(set) var hasEnded = false

    package var waiting: ArraySlice<UInt8> { bytes[start...] }
    package var hasBytes: Bool { start < bytes.count }

    package func drop(_ count: Int) {
        start += count
        if start == bytes.count { bytes.removeAll(keepingCapacity: true); start = 0 }
    }

    /// Reads with `read` into the kept bytes: the count read, 0 at the stream's end, `nil` when
    /// nothing had arrived.
    package func fill(_ read: (UnsafeMutableRawBufferPointer) throws(URLError) -> Int?) throws(URLError) -> Int? {
        let result = scratch.withUnsafeMutableBytes { buffer in Result { () throws(URLError) in try read(buffer) } }
        guard case .success(let count) = result else {
            hasEnded = true
            return try result.get()
        }
        if let count {
            if count == 0 { hasEnded = true }
            bytes.append(contentsOf: scratch[0..<count])
        }
        return count
    }

    /// Copies kept bytes into `buffer`: the count copied; `nil` when none are kept and the
    /// stream has not ended early.
    package func take(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard hasBytes else { return nil }
        let count = min(buffer.count, bytes.count - start)
        bytes.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[start..<start + count])) }
        drop(count)
        return count
    }
}
