import BatonSupport
@testable import DemoServer
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small proxy on 127.0.0.1 for the proxy tests: HTTP (`CONNECT` tunnels, and absolute-form
/// requests it forwards with `Connection: close`) or SOCKS5 (RFC 1928, with RFC 1929's username
/// and password when it is given credentials). It records what each client asked for, and relays
/// bytes both ways, one thread per connection, every wait woken by its stop pipe.
///
/// Written against the RFCs, not against Baton's code: a peer Baton did not shape.
final class TestProxy: Sendable {
    enum Kind: Sendable { case http, socks5 }

    let kind: Kind
    let port: UInt16
    /// The credentials it asks for; `nil`: none.
    let credentials: (username: String, password: String)?
    private let listener: Int32
    private let wake: (read: Int32, write: Int32)
    private let acceptor = Locked<ServerThread?>(nil)
    private let state = Locked(State())

    private struct State {
        /// What clients asked for, in order: `CONNECT 127.0.0.1:8443`, `GET http://…`,
        /// `SOCKS5 name localhost:8080`, `407`, `SOCKS5 refused credentials`.
        var asked: [String] = []
        /// Every `Proxy-Authorization` value received.
        var authorizations: [String] = []
        var threads: [ServerThread] = []
    }

    init(_ kind: Kind, credentials: (username: String, password: String)? = nil) throws {
        self.kind = kind
        self.credentials = credentials
        let (listener, port) = try Posix.listenOnLoopback(port: 0, backlog: 16)
        self.listener = listener
        self.port = port
        wake = try Posix.makePipe()
        let thread = try ServerThread.start { [self] in acceptLoop() }
        acceptor.withLock { $0 = thread }
    }

    /// The proxy's URL, with `credentials` in it when given.
    func url(username: String? = nil, password: String? = nil) -> String {
        let scheme = kind == .http ? "http" : "socks5h"
        let userinfo = username.map { "\($0)\(password.map { ":\($0)" } ?? "")@" } ?? ""
        return "\(scheme)://\(userinfo)127.0.0.1:\(port)"
    }

    var asked: [String] { state.withLock { $0.asked } }
    var authorizations: [String] { state.withLock { $0.authorizations } }

    /// Stops every thread, waiting for them, and closes the socket.
    func stop() {
        Posix.poke(wake.write)
        acceptor.withLock { $0 }?.join()
        for thread in state.withLock({ $0.threads }) { thread.join() }
        Posix.closeDescriptor(listener)
        Posix.closeDescriptor(wake.read)
        Posix.closeDescriptor(wake.write)
    }

    private func record(_ text: String) {
        state.withLock { $0.asked.append(text) }
    }

    private func acceptLoop() {
        while case .ready = Posix.wait(for: listener, wake: wake.read, until: .now + .seconds(300)) {
            while case .accepted(let client, _) = Posix.accept(on: listener) {
                guard let thread = try? ServerThread.start({ [self] in
                    serve(client)
                    Posix.closeDescriptor(client)
                }) else {
                    Posix.closeDescriptor(client)
                    continue
                }
                state.withLock { $0.threads.append(thread) }
            }
        }
    }

    private func serve(_ client: Int32) {
        let peer = Peer(fd: client, wake: wake.read)
        switch kind {
        case .http: serveHTTP(peer)
        case .socks5: serveSOCKS(peer)
        }
    }

    // MARK: HTTP

    private func serveHTTP(_ client: Peer) {
        guard let head = client.readHead() else { return }
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count == 3 else { return }
        let authorization = lines.dropFirst().first { $0.lowercased().hasPrefix("proxy-authorization:") }
            .map { String($0.dropFirst("proxy-authorization:".count)).trimmingCharacters(in: .whitespaces) }
        if let authorization { state.withLock { $0.authorizations.append(authorization) } }
        if let credentials {
            let expected = "Basic " + Data("\(credentials.username):\(credentials.password)".utf8).base64EncodedString()
            guard authorization == expected else {
                record("407")
                client.send("HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm=\"test\"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
                return
            }
        }
        record("\(parts[0]) \(parts[1])")
        if parts[0] == "CONNECT" {
            guard let origin = Self.connect(to: String(parts[1])) else {
                client.send("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
                return
            }
            client.send("HTTP/1.1 200 Connection Established\r\n\r\n")
            relay(client, Peer(fd: origin, wake: wake.read))
            return
        }
        // Absolute form: the origin's authority, and the request in origin form, without the
        // proxy's credentials, closing after its answer.
        guard let url = URL(string: String(parts[1])), let host = url.host, let port = url.port,
              let origin = Self.connect(to: "\(host):\(port)") else {
            client.send("HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return
        }
        let target = url.path(percentEncoded: true) + (url.query(percentEncoded: true).map { "?" + $0 } ?? "")
        let fields = lines.dropFirst().filter {
            !$0.isEmpty && !$0.lowercased().hasPrefix("proxy-authorization:") && !$0.lowercased().hasPrefix("connection:")
        }
        let upstream = Peer(fd: origin, wake: wake.read)
        upstream.send(([ "\(parts[0]) \(target.isEmpty ? "/" : target) \(parts[2])"] + fields + ["Connection: close", "", ""]).joined(separator: "\r\n"))
        relay(client, upstream)
    }

    // MARK: SOCKS5

    private func serveSOCKS(_ client: Peer) {
        guard let greeting = client.read(2), greeting[0] == 5, let methods = client.read(Int(greeting[1])) else { return }
        if credentials != nil {
            guard methods.contains(2) else {
                record("SOCKS5 no acceptable method")
                client.send(bytes: [5, 0xFF])
                return
            }
            client.send(bytes: [5, 2])
            guard let version = client.read(2), version[0] == 1, let username = client.read(Int(version[1])),
                  let passwordLength = client.read(1), let password = client.read(Int(passwordLength[0])) else { return }
            guard String(decoding: username, as: UTF8.self) == credentials?.username,
                  String(decoding: password, as: UTF8.self) == credentials?.password else {
                record("SOCKS5 refused credentials")
                client.send(bytes: [1, 1])
                return
            }
            client.send(bytes: [1, 0])
        } else {
            guard methods.contains(0) else { return }
            client.send(bytes: [5, 0])
        }
        guard let request = client.read(4), request[0] == 5, request[1] == 1 else { return }
        let host: String
        switch request[3] {
        case 1:
            guard let bytes = client.read(4) else { return }
            host = bytes.map(String.init).joined(separator: ".")
            record("SOCKS5 address \(host)")
        case 3:
            guard let length = client.read(1), let name = client.read(Int(length[0])) else { return }
            host = String(decoding: name, as: UTF8.self)
            record("SOCKS5 name \(host)")
        default:
            client.send(bytes: [5, 8, 0, 1, 0, 0, 0, 0, 0, 0])
            return
        }
        guard let portBytes = client.read(2) else { return }
        let port = Int(portBytes[0]) << 8 | Int(portBytes[1])
        guard let origin = Self.connect(to: "\(host):\(port)") else {
            client.send(bytes: [5, 5, 0, 1, 0, 0, 0, 0, 0, 0])
            return
        }
        client.send(bytes: [5, 0, 0, 1, 127, 0, 0, 1, 0, 0])
        relay(client, Peer(fd: origin, wake: wake.read))
    }

    // MARK: Relaying

    /// Copies bytes both ways until either side closes, then closes `origin`.
    private func relay(_ client: Peer, _ origin: Peer) {
        defer { Posix.closeDescriptor(origin.fd) }
        // What the client sent past its head goes first.
        if !client.buffered.isEmpty {
            origin.send(bytes: client.buffered)
            client.buffered = []
        }
        var piece = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            var fds = [pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: client.fd, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: origin.fd, events: Int16(POLLIN), revents: 0)]
            guard poll(&fds, 3, 60_000) > 0, fds[0].revents == 0 else { return }
            for (from, to) in [(1, origin), (2, client)] where fds[from].revents != 0 {
                let source = from == 1 ? client.fd : origin.fd
                let count = piece.withUnsafeMutableBytes { Posix.receive(source, into: $0) }
                guard let count else { continue }
                guard count > 0 else { return }
                to.send(bytes: Array(piece[0..<count]))
            }
        }
    }

    /// A socket to `authority` (`host:port`, the host a name or an address), or `nil`.
    private static func connect(to authority: String) -> Int32? {
        guard let colon = authority.lastIndex(of: ":"), let port = Int(authority[authority.index(after: colon)...]) else { return nil }
        var host = String(authority[..<colon])
        if host.hasPrefix("[") { host = String(host.dropFirst().dropLast()) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        let fd = Posix.counted(socket(first.pointee.ai_family, first.pointee.ai_socktype, 0))
        guard fd >= 0 else { return nil }
        #if canImport(Glibc)
        let connected = Glibc.connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen)
        #else
        let connected = Darwin.connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen)
        #endif
        guard connected == 0 else {
            Posix.closeDescriptor(fd)
            return nil
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return fd
    }

    /// One side of a relay: reads waited for in `poll` beside the stop pipe.
    final class Peer: @unchecked Sendable {  // Used by the one thread that serves its connection.
        let fd: Int32
        let wake: Int32
        var buffered: [UInt8] = []

        init(fd: Int32, wake: Int32) {
            self.fd = fd
            self.wake = wake
        }

        /// The head, up to its empty line; what came after it stays in `buffered`.
        func readHead() -> String? {
            while true {
                if let end = buffered.indices.dropLast(3).first(where: { Array(buffered[$0..<$0 + 4]) == Array("\r\n\r\n".utf8) }) {
                    let head = String(decoding: buffered[..<end], as: UTF8.self)
                    buffered.removeFirst(end + 4)
                    return head
                }
                guard buffered.count < 64 << 10, fill() else { return nil }
            }
        }

        func read(_ count: Int) -> [UInt8]? {
            while buffered.count < count {
                guard fill() else { return nil }
            }
            defer { buffered.removeFirst(count) }
            return Array(buffered[0..<count])
        }

        func send(_ text: String) { send(bytes: Array(text.utf8)) }

        func send(bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes { Posix.send(fd, $0) }
                if sent < 0 { return }
                if sent == 0 {
                    guard case .ready = Posix.wait(for: fd, writable: true, wake: wake, until: .now + .seconds(30)) else { return }
                }
                offset += sent
            }
        }

        private func fill() -> Bool {
            guard case .ready = Posix.wait(for: fd, wake: wake, until: .now + .seconds(30)) else { return false }
            var piece = [UInt8](repeating: 0, count: 16 << 10)
            let count = piece.withUnsafeMutableBytes { Posix.receive(fd, into: $0) }
            guard let count else { return true }
            guard count > 0 else { return false }
            buffered += piece[0..<count]
            return true
        }
    }
}
