import BatonOpenSSL
import Foundation

/// The demo API that the DemoServer article of Baton's documentation describes, served over HTTP/1.1 on a real
/// loopback socket.
///
/// Creating one starts it: it listens on `127.0.0.1` (never another address) before `init`
/// returns, so `baseURL` can be used at once. **It serves as long as the value lives:** keep the
/// server in a variable for as long as its URL is used. `try DemoServer.start().baseURL` keeps
/// only the URL, and the server stops as soon as that line ends, so the next call cannot connect. Each connection is served on its own thread, so slow
/// clients and injected delays never hold up other connections.
///
/// ```swift
/// let server = try DemoServer.start()           // port 0: the system picks a free port
/// let url = server.baseURL.appending(path: "health")
/// ...
/// server.stop()
/// ```
///
/// `stop()` closes every socket and ends every thread the server started before it returns; it is
/// idempotent, and also runs when the last reference goes away. Nothing a client sends can crash or
/// hang it: malformed requests get a 4xx/5xx response and a closed connection, and connections that
/// stay silent or incomplete are closed after `Configuration.idleTimeout`. Memory grows only with
/// what the API stores (tokens, reviews, photos, fault counters), until `POST /_demo/reset`: it is
/// a fixture for tests and demos, not a server to expose.
///
/// - Note: Starting a server sets SIGPIPE to be ignored in the process, so that a client closing
///   early cannot kill the process that hosts the server (a test runner, the Playground).
public final class DemoServer: Sendable {
    /// The settings a server starts with.
    public struct Configuration: Sendable {
        /// The TCP port on 127.0.0.1; 0 (the default) lets the system pick a free one.
        public var port: UInt16
        /// Seconds an access token stays valid; `expires_in` reports it rounded up. Default 60.
        public var tokenLifetime: Double
        /// The largest request body accepted; a larger one is answered 413 (before `100 Continue`
        /// when its length is declared). Default 64 MiB.
        public var maxBodyBytes: Int
        /// The seed of the demo data: the same seed gives the same orders on every run.
        public var seed: UInt64
        /// Seconds a connection may stay silent (or take to send a request head) before it is
        /// closed; an incomplete request is answered 408 first. Default 10; tests use ~1.
        public var idleTimeout: Double
        /// Connections served at once; more are closed on arrival. Default 1024.
        public var maxConnections: Int
        /// How `POST /tokens` and token checks answer. Default ``TokenStyle/demo``.
        public var tokenStyle: TokenStyle = .demo
        /// The time token lifetimes are measured against, read at every login, refresh and token
        /// check (and nowhere else: delays and idle timeouts keep real time). Default the
        /// continuous clock's `now`; a test passes a time it moves by hand, so that a token
        /// expires at an exact point instead of after a real wait.
        public var tokenClock: @Sendable () -> ContinuousClock.Instant = { .now }
        /// Seconds a device must wait between polls of the device grant (`interval`, RFC 8628
        /// §3.2), at least 1; polling sooner is answered `slow_down`. Default 5, as the RFC's;
        /// tests of a device sign-in that wait in real time set 1.
        public var devicePollInterval: Int = 5
        /// Called once per request, from connection threads, with a line such as
        /// `127.0.0.1:50012 "GET /orders/1 HTTP/1.1" 200 93B 0.4ms`. Default none.
        public var log: (@Sendable (String) -> Void)?
        /// Serves `https` with this identity instead of `http`; default `nil`. ``TLS/loopback``
        /// is a test identity for `127.0.0.1` and `localhost`.
        public var tls: TLS?
        /// Bodies larger than this go to a temporary file instead of memory.
        var spillThreshold: Int = 4 << 20

        /// Settings with the given values; every one has its default, so
        /// `Configuration(tokenLifetime: 5)` changes only the token lifetime.
        public init(
            port: UInt16 = 0, tokenLifetime: Double = 60, maxBodyBytes: Int = 64 << 20, seed: UInt64 = 0,
            idleTimeout: Double = 10, maxConnections: Int = 1024, tls: TLS? = nil, log: (@Sendable (String) -> Void)? = nil
        ) {
            self.tls = tls
            self.port = port
            self.tokenLifetime = tokenLifetime
            self.maxBodyBytes = maxBodyBytes
            self.seed = seed
            self.idleTimeout = idleTimeout
            self.maxConnections = maxConnections
            self.log = log
        }
    }

    /// The settings the server runs with (its `port` is the one asked for; see `port`).
    public let configuration: Configuration
    /// The port the server listens on, the system's choice when the configuration said 0.
    public let port: UInt16
    /// `http://127.0.0.1:<port>`, or `https://` when it serves TLS: append the API's paths to it.
    public let baseURL: URL
    private let server: HTTPServer
    private let api: DemoAPI

    /// Starts a server: listening when this returns.
    ///
    /// - Throws: `DemoServerError` when the socket cannot be made or bound, typically a fixed
    ///   `port` already in use.
    public init(configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        let api = DemoAPI(
            seed: configuration.seed, tokenLifetime: Self.clamped(configuration.tokenLifetime, least: 0),
            tokenStyle: configuration.tokenStyle, tokenClock: configuration.tokenClock,
            devicePollInterval: .seconds(max(1, configuration.devicePollInterval))
        )
        var settings = ConnectionSettings(
            idleTimeout: .milliseconds(Int64(Self.clamped(configuration.idleTimeout, least: 0.01) * 1000)),
            maxBodyBytes: max(0, configuration.maxBodyBytes),
            spillThreshold: max(0, configuration.spillThreshold),
            log: configuration.log
        )
        if let tls = configuration.tls {
            do {
                settings.tls = try TLSContext(
                    serverChainPEM: tls.certificateChainPEM, privateKeyPEM: tls.privateKeyPEM,
                    maximumVersion: tls.offersTLS13 ? nil : .tls1_2
                )
            } catch {
                throw DemoServerError(operation: "serve TLS", reason: error.message)
            }
        }
        self.api = api
        server = try HTTPServer(
            port: configuration.port, maxConnections: max(1, configuration.maxConnections),
            settings: settings, handler: api
        )
        port = server.port
        // A numeric loopback URL always parses.
        baseURL = URL(string: "\(configuration.tls == nil ? "http" : "https")://127.0.0.1:\(server.port)")!
        api.origin.withLock { $0 = baseURL.absoluteString }
    }

    /// Starts a server; the same as `init(configuration:)`, spelled as what it does.
    ///
    /// - Throws: `DemoServerError` when the socket cannot be made or bound.
    public static func start(configuration: Configuration = Configuration()) throws -> DemoServer {
        try DemoServer(configuration: configuration)
    }

    deinit {
        server.stop()
    }

    /// Seconds within `least...1e9` (about 30 years), so no setting, infinite or NaN included, can
    /// overflow a conversion to milliseconds.
    private static func clamped(_ seconds: Double, least: Double) -> Double {
        seconds.isNaN ? least : min(max(seconds, least), 1e9)
    }

    /// What the server has counted since it started or was last reset: the same as the body of
    /// `GET /_demo/stats`, without a request (so reading it counts nothing).
    public var stats: Stats {
        api.stats
    }

    /// What the authorization page (`GET /authorize`) answers a browser that opens `page`, such as
    /// the `url` of Baton's `AuthorizationCodeFlow`: the address it redirects back to, with a code
    /// and the `state`, or with `error=access_denied` when `page` asks `demo_decision=deny`. Done
    /// in the process, for a test or a demo that stands in for the browser and the person; nothing
    /// goes over the network, and the stats do not count it.
    ///
    /// ```swift
    /// let flow = try auth.beginAuthorization(redirectURI: URL(string: "com.example.app:/signed-in")!)
    /// let back = try server.openAuthorizationPage(flow.url)
    /// let credentials = try await auth.logIn(completing: flow, redirectedTo: back).value
    /// ```
    ///
    /// - Throws: `DemoServerError` when the page would not redirect: without a `client_id`, or
    ///   without a `redirect_uri` that is an absolute URL.
    public func openAuthorizationPage(_ page: URL) throws -> URL {
        let query = URLComponents(url: page, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        let response: ServerResponse
        do throws(DemoAPI.Refusal) {
            response = try api.authorize(query: query)
        } catch {
            throw DemoServerError(operation: "open the authorization page", reason: String(decoding: error.response.body, as: UTF8.self))
        }
        guard let location = response.headers.first(where: { $0.name == "Location" })?.value, let url = URL(string: location) else {
            throw DemoServerError(operation: "open the authorization page", reason: "it did not redirect")
        }
        return url
    }

    /// Every access token stops working now, as `POST /_demo/expire-tokens` does, but without a
    /// request: for tests that must expire tokens at an exact point, such as from inside a client's
    /// callback. Refresh tokens keep working.
    public func expireAccessTokens() {
        _ = api.expireTokens()
    }

    /// Stops serving: closes the listening socket and every connection (requests in progress are cut
    /// off), and returns once every thread the server started has ended. Calling it again does
    /// nothing; calls from several threads at once all return after the server has stopped.
    public func stop() {
        server.stop()
    }
}
