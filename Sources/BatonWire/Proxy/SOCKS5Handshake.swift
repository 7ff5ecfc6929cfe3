import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A tunnel through a SOCKS5 proxy (RFC 1928), with a username and password when given (RFC
/// 1929): once the proxy has connected, the socket carries the origin's bytes, TLS included.
///
/// Every answer of the proxy is read to its exact length, so no byte of the origin's is taken
/// for the proxy's or lost.
package enum SOCKS5Handshake {
    /// Where the proxy is asked to connect.
    package enum Destination {
        /// A host name, resolved by the proxy (`socks5h`).
        case name(String)
        /// An address resolved here (`socks5`).
        case address(ResolvedAddress)
    }

    /// Asks the proxy at the other end of `socket` (`proxy`, as `host:port`) to connect to
    /// `destination`:`port` (`origin`, as `host:port`, for the sentences), signing in with
    /// `credentials` when given, all before `deadline`.
    ///
    /// - Throws: `URLError` `.userAuthenticationRequired` when the proxy wants credentials it was
    ///   not given or refuses those it was, `.cannotConnectToHost` when it could not connect
    ///   (saying why, in RFC 1928's words), `.badServerResponse` when it does not speak SOCKS5,
    ///   `.timedOut` past the deadline; each naming the proxy.
    package static func open(over socket: Socket, to destination: Destination, port: Int, origin: String,
                             credentials: (username: String, password: String)?, proxy: String,
                             deadline: ContinuousClock.Instant, timeout: Duration) throws(URLError) {
        let link = ProxyLink(socket: socket, proxy: proxy, deadline: deadline, timeout: timeout)
        // Greeting: version 5, the methods offered: none (0), and username/password (2) when
        // there are credentials.
        try link.write(credentials == nil ? [5, 1, 0] : [5, 2, 0, 2])
        var choice: [UInt8] = []
        try link.read(exactly: 2, appendingTo: &choice)
        guard choice[0] == 5 else { throw notSOCKS(proxy, "its greeting answer has version \(choice[0])") }
        switch choice[1] {
        case 0:
            break
        case 2 where credentials != nil:
            try signIn(credentials!, link: link)
        case 0xFF where credentials == nil:
            throw URLError(.userAuthenticationRequired, detail:
                "the SOCKS5 proxy \(proxy) asks for credentials: give them in the proxy's URL, as socks5://user:password@\(proxy)")
        case 0xFF:
            throw URLError(.userAuthenticationRequired, detail: "the SOCKS5 proxy \(proxy) accepts neither no authentication nor a username and password")
        default:
            throw notSOCKS(proxy, "it chose the method \(choice[1]), which was not offered")
        }
        try link.write(connectRequest(to: destination, port: port))
        var reply: [UInt8] = []
        while true {
            switch try SOCKS5Reply.read(reply, proxy: proxy) {
            case .needs(let total):
                try link.read(exactly: total - reply.count, appendingTo: &reply)
            case .succeeded:
                return
            case .failed(let reason):
                throw URLError(.cannotConnectToHost, detail: "the SOCKS5 proxy \(proxy) could not connect to \(origin) (\(reason))")
            }
        }
    }

    /// RFC 1929: version 1, the username and the password, each 1 to 255 bytes.
    private static func signIn(_ credentials: (username: String, password: String), link: ProxyLink) throws(URLError) {
        let username = Array(credentials.username.utf8.prefix(255))
        let password = Array(credentials.password.utf8.prefix(255))
        try link.write([1, UInt8(username.count)] + username + [UInt8(password.count)] + password)
        var status: [UInt8] = []
        try link.read(exactly: 2, appendingTo: &status)
        guard status[0] == 1 else { throw notSOCKS(link.proxy, "its answer to the username and password has version \(status[0])") }
        guard status[1] == 0 else {
            throw URLError(.userAuthenticationRequired, detail: "the SOCKS5 proxy \(link.proxy) refused the username and password given for it")
        }
    }

    /// `CONNECT` (command 1) to the destination: a name (type 3) or an IPv4 (1) or IPv6 (4)
    /// address, then the port.
    static func connectRequest(to destination: Destination, port: Int) -> [UInt8] {
        var request: [UInt8] = [5, 1, 0]
        switch destination {
        case .name(let name):
            let bytes = Array(name.utf8.prefix(255))
            request += [3, UInt8(bytes.count)] + bytes
        case .address(let address):
            request += [address.isIPv6 ? 4 : 1] + address.addressBytes
        }
        request += [UInt8(port >> 8 & 0xFF), UInt8(port & 0xFF)]
        return request
    }

    static func notSOCKS(_ proxy: String, _ what: String) -> URLError {
        URLError(.badServerResponse, detail: "the proxy \(proxy) does not speak SOCKS5: \(what)")
    }
}

/// The proxy's reply to a SOCKS5 `CONNECT` (RFC 1928 §6), read a piece at a time: the version,
/// the reply code, a reserved byte, and the bound address, whose length its type gives.
package enum SOCKS5Reply: Equatable {
    /// The reply is `total` bytes at least: read up to there and look again.
    case needs(total: Int)
    /// The proxy connected; the tunnel begins right after the reply.
    case succeeded
    /// The proxy could not connect, for `reason` (RFC 1928's words for the code).
    case failed(reason: String)

    /// What `bytes`, the reply's beginning, say so far.
    ///
    /// - Throws: `URLError(.badServerResponse)` naming `proxy` when they are not a SOCKS5 reply.
    package static func read(_ bytes: [UInt8], proxy: String) throws(URLError) -> SOCKS5Reply {
        guard bytes.count >= 4 else { return .needs(total: 4) }
        guard bytes[0] == 5 else { throw SOCKS5Handshake.notSOCKS(proxy, "its reply has version \(bytes[0])") }
        let total: Int
        switch bytes[3] {
        case 1: total = 4 + 4 + 2
        case 4: total = 4 + 16 + 2
        case 3:
            guard bytes.count >= 5 else { return .needs(total: 5) }
            total = 5 + Int(bytes[4]) + 2
        default: throw SOCKS5Handshake.notSOCKS(proxy, "its reply has the address type \(bytes[3])")
        }
        guard bytes.count >= total else { return .needs(total: total) }
        guard bytes.count == total else { throw SOCKS5Handshake.notSOCKS(proxy, "its reply is longer than its address") }
        return bytes[1] == 0 ? .succeeded : .failed(reason: reason(for: bytes[1]))
    }

    /// RFC 1928 §6's meaning of a reply code other than 0.
    static func reason(for code: UInt8) -> String {
        switch code {
        case 1: "general SOCKS server failure"
        case 2: "connection not allowed by ruleset"
        case 3: "network unreachable"
        case 4: "host unreachable"
        case 5: "connection refused"
        case 6: "TTL expired"
        case 7: "command not supported"
        case 8: "address type not supported"
        default: "reply code \(code)"
        }
    }
}
