import BatonSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise
import BatonWire

/// A ``Transport`` of Baton's own that speaks HTTP/1.1 over POSIX sockets, and over TLS for
/// `https` through the system's OpenSSL 3.
///
/// ```swift
/// let client = try Client(baseURL: "https://api.example.com/", transport: HTTP1Transport())
/// ```
///
/// On Linux it carries a client's requests by default (``Client/init(configuration:transport:)``),
/// in place of FoundationNetworking's URLSession, which it outruns many times over, and it keeps
/// the promises URLSession there cannot:
/// - **Bounded memory.** A body is read only as fast as it is kept; one declared, delivered or
///   inflated past ``TransferOptions/maximumResponseSize`` is stopped the moment it is.
/// - **Strict parsing.** Every response is parsed by the rules of RFC 9112; a malformed one (two
///   different `Content-Length`s, a length past `Int64`, a cut head) fails its call with
///   `URLError(.badServerResponse)` saying what was wrong, never a crash.
/// - **Real pause.** Pausing a call stops reading from (or writing to) its socket; TCP then holds
///   the server back until the call resumes.
/// - **Lengths.** A body of known length (data, or a file, read a piece at a time) goes with
///   `Content-Length`, never chunked and never with `Expect: 100-continue`.
///
/// Connections are pooled per origin and kept alive between requests: see ``Configuration``.
/// Each connection runs on a thread of its own, and requests beyond
/// ``Configuration/maximumConnectionsPerOrigin`` wait in line without one, so a thousand
/// requests at once need no more threads than connections. A request sent on a kept-alive
/// connection that the server had closed before answering is sent again, once, on a new one
/// when its method is idempotent; a `POST` then fails with `URLError(.networkConnectionLost)`,
/// as it may have been acted on.
///
/// **TLS.** An `https` connection verifies the server's certificate chain against the system's
/// trusted roots (and any in ``Configuration/tls``), and that it is for the URL's host, before a
/// byte of the request is sent; it sends SNI, offers ALPN `http/1.1`, and accepts TLS 1.2 or
/// later. A certificate refused fails the call with a `URLError` saying why (expired since when,
/// for which other names, from which untrusted authority): see `TLSConfiguration`. OpenSSL is
/// loaded when the first `https` request is sent; where it cannot be, such requests fail with
/// `URLError(.secureConnectionFailed)` saying so. It does not present client certificates or
/// resume TLS sessions.
///
/// **Addresses.** A host's IPv6 and IPv4 addresses race as Happy Eyeballs (RFC 8305) says: IPv6
/// first, the next address 250 ms later while the first goes on, families alternating; the first
/// to connect carries the request and the others are closed, so an address that never answers
/// (a broken IPv6 route) costs 250 ms, not ``Configuration/connectTimeout``, which bounds the
/// whole race.
///
/// **Proxies.** Requests go through the HTTP or SOCKS5 proxies of ``Configuration/proxies``,
/// read by default from the environment as curl reads it (`http_proxy`, `https_proxy`,
/// `all_proxy`, `no_proxy`): see ``Proxy`` for what each does and where its credentials go.
/// Connections are pooled per proxy and origin; their events name the proxy.
///
/// It does not speak HTTP/2; it follows no redirect (the client does, under
/// its ``RedirectPolicy``) and keeps no cache. It keeps cookies, in memory, for its life, as
/// URLSession's ephemeral configuration does: see ``Configuration/keepsCookies``.
public final class HTTP1Transport: Transport {
    /// How connections and cookies are kept.
    public struct Configuration: Sendable {
        /// The most connections open at once to one origin (scheme, host, port); further requests
        /// wait for one. Default 16.
        public var maximumConnectionsPerOrigin: Int = 16
        /// The most origins whose connections are kept at once. A request to one more closes the
        /// pool used least recently (its idle connections at once, busy ones when done), so a
        /// server that redirects to ever new hosts cannot make the transport hold ever more
        /// connections and threads. Default 64.
        public var maximumPooledOrigins: Int = 64
        /// How long an unused connection stays open for the next request. Default 60 s.
        public var idleTimeout: Duration = .seconds(60)
        /// The longest a connection may take to open, the whole race between the host's
        /// addresses (see ``HTTP1Transport``) and a proxy's tunnel included; the request's own
        /// timeout bounds it too. Default 10 s.
        public var connectTimeout: Duration = .seconds(10)
        /// Whether the cookies servers set are kept and sent back. Default `true`: they are kept
        /// in memory for the transport's life and sent back only where RFC 6265 allows (a cookie
        /// goes back to the host that set it, or to the domain it names and its subdomains, under
        /// its path, and over https only when `Secure`), as URLSession's ephemeral configuration
        /// does. A request whose `httpShouldHandleCookies` is false neither sends nor keeps them;
        /// one with a `Cookie` field of its own sends that instead. `false`: none are kept or sent.
        public var keepsCookies: Bool = true
        /// How `https` connections are secured: trusted roots, pinned keys, the oldest version.
        /// The default trusts the system's roots only.
        public var tls = TLSConfiguration()
        /// The proxies requests go through, by scheme, and the hosts reached directly. Default:
        /// what the environment says when the configuration is made, as curl reads it (see
        /// ``ProxySettings/environment(_:)``); settings given here replace the environment's.
        public var proxies: ProxySettings = .environment()
        /// What finds a host's addresses: the system's resolver, but for tests that send a name to
        /// addresses of their own.
        package var resolver: AddressResolver = .system

        /// The defaults.
        public init() {}
    }

    /// What the transport was set up with.
    public let configuration: Configuration
    /// The pools by origin, `scheme://host:port` with the host's ``CanonicalHost`` spelling.
    private let pools: Lock<RecentlyUsed<ConnectionPool>>
    /// The cookies kept, shared by every pool; `nil` when ``Configuration/keepsCookies`` is false.
    let cookies: CookieJar?
    /// What every `https` pool shares, made on the first `https` request.
    private let tls = Lock<Result<TLSSetup, URLError>?>(nil)

    /// A transport with `configuration`.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        pools = Lock(RecentlyUsed(capacity: configuration.maximumPooledOrigins))
        cookies = configuration.keepsCookies ? CookieJar() : nil
    }

    deinit {
        for pool in pools.withLock(annotating: self, { $0.values }) { pool.close() }
    }

    /// Sends `request` over a pooled connection: see ``Transport/send(_:body:options:)``.
    ///
    /// A request that is neither `http` nor `https` fails with `URLError(.unsupportedURL)`; one
    /// whose host could be read as two hosts (a `%00`, a control character, a `%` left in it)
    /// or whose method or header field names are not tokens, with `URLError(.badURL)` or a
    /// refusal in words (an ``APIError`` of kind ``APIError/Kind/invalidRequest``, through the
    /// client); and an `https` one where OpenSSL cannot be had with
    /// `URLError(.secureConnectionFailed)`: each before anything is sent.
    public func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
        let inFlight = InFlightRequest(request: request, body: body, options: options)
        let scheme = request.url?.scheme ?? ""
        let secure = WireText.equalIgnoringCase(scheme, "https")
        guard let url = request.url, secure || WireText.equalIgnoringCase(scheme, "http") else {
            inFlight.finish(.failure(URLError(.unsupportedURL, detail: "HTTP1Transport speaks http and https only")))
            return inFlight.promise
        }
        let host: CanonicalHost
        do throws(URLError) {
            host = try CanonicalHost(url)
        } catch {
            inFlight.finish(.failure(URLError(.badURL, detail: (error.detail ?? "the URL's host cannot be used") + "; nothing was sent")))
            return inFlight.promise
        }
        do {
            try RequestHead.checkSyntax(of: request)
        } catch {
            inFlight.promise.settle(.failure(error))
            return inFlight.promise
        }
        var setup: TLSSetup?
        if secure {
            switch tlsSetup() {
            case .success(let made): setup = made
            case .failure(let error):
                inFlight.finish(.failure(error))
                return inFlight.promise
            }
        }
        let proxy: Proxy?
        do throws(URLError) {
            proxy = try configuration.proxies.route(scheme: scheme, host: host, port: url.port)
        } catch {
            inFlight.finish(.failure(URLError(error.code, detail: (error.detail ?? "the proxy cannot be used") + "; nothing was sent")))
            return inFlight.promise
        }
        pool(host: host, port: url.port ?? (secure ? 443 : 80), tls: setup, proxy: proxy).enqueue(inFlight)
        return inFlight.promise
    }

    /// The TLS setup of every `https` connection, made once; or why TLS cannot be had here.
    func tlsSetup() -> Result<TLSSetup, URLError> {
        tls.withLock(annotating: self) { made in
            if let made { return made }
            let result = Result { () throws(URLError) in try TLSSetup(configuration.tls) }
            made = result
            return result
        }
    }

    /// The pool of the origin `host`:`port` (`https` when `tls` is given), whose connections go
    /// through `proxy`, made on first use. The proxies are the configuration's, fixed for the
    /// transport's life, so an origin's pool is that of one route: its connections never carry
    /// a request another route (a proxy, or none) should have. Beyond
    /// ``Configuration/maximumPooledOrigins`` pools, the one used least recently is closed: its
    /// idle connections at once, its busy ones once their requests are done.
    private func pool(host: CanonicalHost, port: Int, tls: TLSSetup?, proxy: Proxy?) -> ConnectionPool {
        let key = "\(tls == nil ? "http" : "https")://\(host.uriForm):\(port)"
        let (pool, evicted) = pools.withLock(annotating: self) { pools in
            pools.use(key, orMake: {
                ConnectionPool(host: host, port: port, configuration: configuration, cookies: cookies, tls: tls, proxy: proxy)
            })
        }
        evicted?.close()
        return pool
    }
}
