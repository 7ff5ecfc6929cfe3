import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A tunnel through an HTTP proxy (RFC 9110 §9.3.6): `CONNECT host:port`, and once the proxy
/// answers `2xx`, the socket carries the origin's bytes, TLS included, end to end.
///
/// The proxy's answer is read by the ``ResponseParser`` every response goes through, and must
/// end where its head does: a byte after it would be the origin's before it was asked for
/// anything, so it is refused rather than lost.
package enum HTTPTunnel {
    /// The most a proxy's answer head may be: far more than any proxy sends.
    static let limits = ResponseLimits(maximumHeadBytes: 16 << 10)

    /// Asks the proxy at the other end of `socket` (`proxy`, as `host:port`) for a tunnel to
    /// `authority` (`host:port`), sending `authorization` as `Proxy-Authorization` when given,
    /// all before `deadline`.
    ///
    /// - Throws: `URLError` `.userAuthenticationRequired` for a `407`, `.cannotConnectToHost`
    ///   for any other refusal, `.badServerResponse` for an answer that is not HTTP, `.timedOut`
    ///   past the deadline; each naming the proxy.
    package static func open(over socket: Socket, to authority: String, authorization: String?, proxy: String,
                             deadline: ContinuousClock.Instant, timeout: Duration) throws(URLError) {
        let link = ProxyLink(socket: socket, proxy: proxy, deadline: deadline, timeout: timeout)
        var request = "CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n"
        if let authorization { request += "Proxy-Authorization: \(authorization)\r\n" }
        request += "\r\n"
        try link.write(Array(request.utf8))
        var parser = ResponseParser(requestMethod: "CONNECT", limits: limits)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var head: ResponseHead?
        while head == nil {
            let count = try link.read(into: &buffer, at: 0, limit: buffer.count)
            guard count > 0 else { throw link.closed() }
            let used: Int
            do {
                used = try buffer.withUnsafeBytes { bytes in
                    try parser.parse(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { event in
                        if case .head(let answer) = event { head = answer }
                    }
                }
            } catch {
                throw URLError(.badServerResponse, detail: "the proxy \(proxy) answered CONNECT with something that is not HTTP: \(error)")
            }
            if let head, (200..<300).contains(head.status), used < count {
                throw URLError(.badServerResponse, detail: "the proxy \(proxy) sent bytes after its answer to CONNECT, before the tunnel carried anything")
            }
        }
        try check(status: head!.status, reason: head!.reason, proxy: proxy, authority: authority, sentAuthorization: authorization != nil)
    }

    /// Nothing when the proxy's answer `status` (`reason`) opens the tunnel; else the failure it
    /// means: a `407` (or a `401`, which only the proxy can have sent) is about its credentials.
    /// A `407` to a request sent to the proxy itself means the same.
    package static func check(status code: Int, reason: String, proxy: String, authority: String, sentAuthorization: Bool) throws(URLError) {
        let status = "\(code)" + (reason.isEmpty ? "" : " " + MessageText.escaped(String(reason.prefix(80))))
        switch code {
        case 200..<300:
            return
        // A 401 to CONNECT is the proxy's too (no origin has been reached): tinyproxy 1.11
        // answers refused credentials so.
        case 407 where sentAuthorization, 401 where sentAuthorization:
            throw URLError(.userAuthenticationRequired, detail: "the proxy \(proxy) refused the credentials given for it (\(status))")
        case 407, 401:
            throw URLError(.userAuthenticationRequired, detail:
                "the proxy \(proxy) asks for credentials (\(status)): give them in the proxy's URL, as http://user:password@\(proxy)")
        default:
            throw URLError(.cannotConnectToHost, detail: "the proxy \(proxy) would not open a tunnel to \(authority) (\(status))")
        }
    }
}
