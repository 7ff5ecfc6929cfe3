import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a request is written to and its answer read from: a connected socket, through TLS for
/// `https`. The writer and the reader see one kind of byte stream either way.
struct Link {
    let socket: Socket
    /// The TLS connection over `socket`, for `https`.
    let tls: TLSStream?

    /// Reads what has arrived into `buffer`, waiting up to `timeout`: the count read, 0 when
    /// the server closed the connection.
    func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration) throws(URLError) -> Int {
        guard let tls else { return try socket.read(into: buffer, timeout: timeout) }
        return try tls.read(into: buffer, timeout: timeout)
    }

    /// Writes all of `bytes`; with `untilAnswered`, stops as soon as the server has answered and
    /// returns `false`.
    @discardableResult
    func write(_ bytes: UnsafeRawBufferPointer, timeout: Duration, untilAnswered: Bool = false) throws(URLError) -> Bool {
        guard let tls else {
            return try socket.write(bytes, timeout: timeout, until: untilAnswered ? { true } : nil)
        }
        return try tls.write(bytes, timeout: timeout, untilAnswered: untilAnswered)
    }

    /// Whether the server has answered (or hung up) while the request's body is still going out.
    /// Over TLS, what arrived is decrypted to tell: a TLS 1.3 server's session tickets are no answer.
    var hasAnswerWaiting: Bool {
        guard let tls else { return socket.isReadable }
        return tls.hasAnswerWaiting()
    }

    /// Whether an idle kept-alive connection cannot carry another request: the server sent
    /// something unasked, or closed it.
    var isStale: Bool {
        guard let tls else { return socket.hasInputOrHangUp }
        return tls.hasAnswerWaiting()
    }

    /// Closes the connection; over TLS, tells the server first (`close_notify`) when `politely`.
    func close(politely: Bool) {
        if politely { tls?.sendCloseNotify() }
        socket.close()
    }
}
