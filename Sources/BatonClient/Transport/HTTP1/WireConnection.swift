import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// What a connection's thread holds: the socket, kept open between requests while the server
/// allows, and the buffer it reads into. Carries one request at a time, start to finish.
struct WireConnection {
    let host: CanonicalHost
    let port: Int
    let configuration: HTTP1Transport.Configuration
    /// The connection's number among those to its server, for its events.
    let number: Int
    /// The transport's cookies: sent with each request, and kept from each response.
    let cookies: CookieJar?
    /// What `https` connections are secured with; `nil` for `http`.
    let tls: TLSSetup?
    /// The proxy connections go through; `nil`: directly.
    let proxy: HTTP1Transport.Proxy?
    private var link: Link?
    /// Where the last request carried wanted the connection's events told: it hears of the
    /// connection closing while it idles, too.
    private var observer: (@Sendable (ConnectionEvent) -> Void)?
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)

    init(pool: ConnectionPool, number: Int) {
        host = pool.host
        port = pool.port
        configuration = pool.configuration
        self.number = number
        cookies = pool.cookies
        tls = pool.tls
        proxy = pool.proxy
    }

    private func tell(_ kind: ConnectionEvent.Kind, address: ResolvedAddress? = nil, reason: String? = nil, security: String? = nil) {
        observer?(ConnectionEvent(kind, server: "\(host.uriForm):\(port)", connection: number, proxy: proxy?.server,
                                  address: address?.description, reason: reason, security: security))
    }

    /// Whether requests go to an HTTP proxy in absolute form: `http` ones through an HTTP proxy.
    private var speaksToProxy: Bool { tls == nil && proxy?.kind == .http }

    /// Sends `request` and reads its response, or says why there is none. A request sent on a
    /// kept-alive socket that the server had closed before answering a byte is sent once more on
    /// a new one, when its method is idempotent.
    mutating func carry(_ request: InFlightRequest) -> Result<HTTPResponse, URLError> {
        guard !request.isCancelled else { return .failure(URLError(.cancelled)) }
        observer = request.options.connectionEvents
        var sentAgain = false
        while true {
            var answered = false
            let reused = link != nil
            let result = Result { try exchange(request, on: openLink(for: request), answered: &answered) }
            // Detached before any close: a cancel shuts down only a descriptor the request holds
            // (under its lock), never one closed and perhaps reused by another connection.
            request.detach()
            switch result {
            case .success(let answer):
                if !answer.keepsConnection { close(because: "the server asked to close it, or ended its answer by closing it") }
                return .success(answer.response)
            case .failure(let error):
                if request.isCancelled {
                    close(because: "its request was cancelled")
                    return .failure(URLError(.cancelled))
                }
                let failure = error as? URLError ?? URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error])
                close(because: "its exchange failed (\(failure.detail ?? "URLError \(failure.code.rawValue)"))")
                if reused, !answered, !sentAgain, request.isIdempotent, failure.code == .networkConnectionLost {
                    sentAgain = true
                    continue
                }
                if reused, !answered, failure.code == .networkConnectionLost {
                    return .failure(URLError(.networkConnectionLost, detail:
                        "the server closed the kept-alive connection before answering; a \(request.request.httpMethod ?? "POST") is not sent again by itself, as it may have been acted on"))
                }
                if tls == nil, failure.detail == WireError.closedBeforeResponse.description {
                    return .failure(URLError(.networkConnectionLost, detail: "\(WireError.closedBeforeResponse.description) "
                        + "(a server that speaks only https does so to a plain http request: is the URL's scheme right?)"))
                }
                return .failure(failure)
            }
        }
    }

    /// The link to send on, attached to `request` (so that a cancel shuts it down): the
    /// kept-alive one unless the server has closed it (or sent something unasked) while it idled,
    /// else a new one, its TLS handshake done for `https`.
    private mutating func openLink(for request: InFlightRequest) throws(URLError) -> Link {
        if let link, !link.isStale {
            guard request.attach(link.socket) else { throw URLError(.cancelled) }
            request.options.timer?.connected(reused: true)
            tell(.reused)
            return link
        }
        close(because: "\(speaksToProxy ? "the proxy" : "the server") closed it while it idled")
        let timeout = min(configuration.connectTimeout, request.timeout)
        let deadline = ContinuousClock.now + timeout
        let (socket, address) = try connect(timeout: timeout, isCancelled: { request.isCancelled })
        // Attached before the tunnel and the handshake: a cancel reaches a proxy or a server
        // that stalls them.
        guard request.attach(socket) else {
            socket.close()
            throw URLError(.cancelled)
        }
        do {
            try openTunnel(over: socket, deadline: deadline, timeout: timeout)
            request.options.timer?.connected(reused: false)
            guard let tls else {
                link = Link(socket: socket, tls: nil)
                tell(.opened, address: address)
                return link!
            }
            let stream = try TLSStream.handshake(over: socket, host: host, port: port, setup: tls, timeout: timeout)
            request.options.timer?.secured()
            link = Link(socket: socket, tls: stream)
            tell(.opened, address: address, security: stream.summary)
            return link!
        } catch {
            request.detach()
            socket.close()
            throw error
        }
    }

    /// A socket connected to the origin, or to the proxy, and the address it reached; a cancel
    /// of the request is heard while the addresses race.
    private func connect(timeout: Duration, isCancelled: () -> Bool) throws(URLError) -> (Socket, ResolvedAddress) {
        guard let proxy else {
            return try Socket.connect(host: host.name, port: port, timeout: timeout, resolver: configuration.resolver, isCancelled: isCancelled)
        }
        do {
            return try Socket.connect(host: proxy.host, port: proxy.port, timeout: timeout, resolver: configuration.resolver, isCancelled: isCancelled)
        } catch where error.code == .cancelled {
            throw error
        } catch {
            throw URLError(error.code, detail: "the proxy \(proxy.server) could not be reached: \(error.detail ?? "URLError \(error.code.rawValue)")")
        }
    }

    /// Through the proxy's `socket`, a tunnel to the origin, unless requests go to the proxy
    /// itself (`http` through an HTTP proxy).
    private func openTunnel(over socket: Socket, deadline: ContinuousClock.Instant, timeout: Duration) throws(URLError) {
        guard let proxy, !speaksToProxy else { return }
        let origin = "\(host.uriForm):\(port)"
        if proxy.kind == .http {
            try HTTPTunnel.open(over: socket, to: origin, authorization: proxy.authorization, proxy: proxy.server, deadline: deadline, timeout: timeout)
            return
        }
        let destination: SOCKS5Handshake.Destination
        if let address = ResolvedAddress(numeric: host.name, port: port) {
            destination = .address(address)
        } else if proxy.kind == .socks5h {
            destination = .name(host.name)
        } else {
            // socks5: the name is resolved here, and the proxy given the address preferred.
            guard let address = try configuration.resolver.resolve(host.name, port).first else {
                throw URLError(.cannotFindHost, detail: "the host name \(host.name) has no address")
            }
            destination = .address(address)
        }
        try SOCKS5Handshake.open(over: socket, to: destination, port: port, origin: origin,
                                 credentials: proxy.username.map { ($0, proxy.password ?? "") },
                                 proxy: proxy.server, deadline: deadline, timeout: timeout)
    }

    /// Closes the connection, if one is open, and tells why; `politely` (a connection the client
    /// lets go of, idle) says goodbye over TLS first, which one given up on is not worth.
    mutating func close(because reason: String, politely: Bool = false) {
        guard let link else { return }
        link.close(politely: politely)
        self.link = nil
        tell(.closed, reason: reason)
    }

    /// Writes `request` and reads its response. `answered` turns true once a byte of the response
    /// arrived: from then on, a failure is not a stale connection's.
    private mutating func exchange(_ request: InFlightRequest, on link: Link, answered: inout Bool) throws -> ConnectionResult {
        let bodyLength = try request.body.map { body -> Int64 in
            guard let length = body.length else { throw URLError(.fileDoesNotExist, detail: "the body's file cannot be read") }
            return length
        }
        // Read again for each attempt: a request sent again carries the cookies of the moment.
        let jar = request.request.httpShouldHandleCookies ? cookies : nil
        let cookie = request.request.url.flatMap { jar?.cookieHeader(for: $0) }
        let head = RequestHead(request.request, host: host, bodyLength: bodyLength, cookie: cookie,
                               proxy: speaksToProxy ? .init(authorization: proxy?.authorization) : nil)
        let complete = try RequestWriter(request: request, link: link).write(head: head.bytes, bodyLength: bodyLength)
        request.options.timer?.sent()
        let reader = ResponseReader(request: request, link: link, cookies: jar)
        var answer = try reader.read(into: &buffer, answered: &answered)
        if speaksToProxy, answer.response.statusCode == 407, let proxy {
            // The proxy's own refusal, not the origin's answer: a sentence naming the proxy.
            try HTTPTunnel.check(status: 407, reason: "Proxy Authentication Required", proxy: proxy.server,
                                 authority: "\(host.uriForm):\(port)", sentAuthorization: proxy.authorization != nil)
        }
        // A request whose body the server did not wait for leaves the connection unusable.
        answer.keepsConnection = answer.keepsConnection && complete
        return answer
    }
}
