import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

extension HTTP1Transport {
    /// Which proxy an ``HTTP1Transport`` connects through, by the request's scheme, and the hosts
    /// it reaches directly: ``HTTP1Transport/Configuration/proxies``.
    ///
    /// ```swift
    /// var configuration = HTTP1Transport.Configuration()
    /// configuration.proxies = .init(all: try .init("http://proxy.internal:3128"), exceptions: [".internal", "10.0.0.0/8"])
    /// ```
    ///
    /// By default they are read from the environment (``environment(_:)``), as curl reads them;
    /// settings given in the configuration replace the environment's entirely.
    public struct ProxySettings: Sendable {
        /// The proxy of `http` requests; `nil`: they connect directly.
        public var http: Proxy? {
            didSet { unusable["http"] = nil }
        }
        /// The proxy of `https` requests; `nil`: they connect directly.
        public var https: Proxy? {
            didSet { unusable["https"] = nil }
        }
        /// The hosts reached directly whatever the proxies, written as `no_proxy` writes them:
        /// - `example.com` or `.example.com`: that host and every name under it;
        /// - `example.com:8080`: the same, on that port only;
        /// - `192.168.1.10`, `::1`, `[::1]:8080`: that address (on that port);
        /// - `10.0.0.0/8`, `fd00::/8`: every address in the range;
        /// - `*`: every host.
        ///
        /// Names are matched as written, never resolved: an address entry matches a URL that
        /// names the address. An entry that fits none of these forms matches nothing.
        public var exceptions: [String] {
            didSet { matcher = ProxyExceptions(exceptions) }
        }
        private var matcher: ProxyExceptions
        /// Why a scheme's proxy, read from the environment, cannot be used: its requests fail
        /// with it, rather than go around the proxy the environment asks for.
        private(set) var unusable: [String: URLError] = [:]

        /// `http` and `https` requests through their proxies, except to `exceptions`.
        public init(http: Proxy? = nil, https: Proxy? = nil, exceptions: [String] = []) {
            self.http = http
            self.https = https
            self.exceptions = exceptions
            matcher = ProxyExceptions(exceptions)
        }

        /// Every request through `proxy`, except to `exceptions`.
        public init(all proxy: Proxy, exceptions: [String] = []) {
            self.init(http: proxy, https: proxy, exceptions: exceptions)
        }

        /// No proxy: every request connects directly.
        public static var none: ProxySettings { ProxySettings() }

        /// The proxies `variables` name, as curl reads them:
        /// - `http_proxy` for `http` (lower-case only: a web server's CGI sets `HTTP_PROXY` from a
        ///   request's `Proxy` header, so curl ignores it, and so does Baton);
        /// - `https_proxy` or `HTTPS_PROXY` for `https`;
        /// - `all_proxy` or `ALL_PROXY` for a scheme without its own;
        /// - `no_proxy` or `NO_PROXY`, comma-separated, as ``exceptions``.
        ///
        /// The lower-case form wins over the upper-case one, and an empty value counts as none.
        /// One departure from curl: `localhost`, `127.0.0.0/8` and `::1` are always among the
        /// exceptions, so that a proxy set for the outside world never carries requests to this
        /// machine itself (they are in ``exceptions``, where they can be removed).
        ///
        /// A variable that names no proxy Baton can use (an `https://` proxy, say) is not
        /// skipped: its scheme's requests fail with the `URLError` saying why, as going around
        /// the proxy could send them where the network does not allow.
        public static func environment(_ variables: [String: String] = ProcessInfo.processInfo.environment) -> ProxySettings {
            func value(_ names: String...) -> (name: String, value: String)? {
                for name in names {
                    if let value = variables[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty { return (name, value) }
                }
                return nil
            }
            let exceptions = value("no_proxy", "NO_PROXY")?.value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
            var settings = ProxySettings(exceptions: exceptions.filter { !$0.isEmpty } + ["localhost", "127.0.0.0/8", "::1"])
            let all = value("all_proxy", "ALL_PROXY")
            for (scheme, variable) in [("http", value("http_proxy") ?? all), ("https", value("https_proxy", "HTTPS_PROXY") ?? all)] {
                guard let variable else { continue }
                do throws(URLError) {
                    let proxy = try Proxy(variable.value)
                    if scheme == "http" { settings.http = proxy } else { settings.https = proxy }
                } catch {
                    settings.unusable[scheme] = URLError(error.code, detail: "the environment's \(variable.name) cannot be used: \(error.detail ?? "it names no proxy")")
                }
            }
            return settings
        }

        /// The proxy a request to `url` goes through: `nil` when it connects directly (a URL
        /// whose host the transport would refuse included: nothing is sent).
        ///
        /// - Throws: the `URLError` its request would fail with, when the environment named a
        ///   proxy for its scheme that cannot be used (see ``environment(_:)``).
        public func proxy(for url: URL) throws(URLError) -> Proxy? {
            guard let host = try? CanonicalHost(url) else { return nil }
            return try route(scheme: url.scheme ?? "", host: host, port: url.port)
        }

        /// The proxy of a request of `scheme` to `host`:`port` (the scheme's default when `nil`).
        ///
        /// - Throws: the `URLError` saying why, when the environment's proxy for it cannot be used.
        func route(scheme: String, host: CanonicalHost, port: Int?) throws(URLError) -> Proxy? {
            let secure = WireText.equalIgnoringCase(scheme, "https")
            let key = secure ? "https" : "http"
            guard secure || WireText.equalIgnoringCase(scheme, "http") else { return nil }
            let proxy = secure ? https : http
            guard proxy != nil || unusable[key] != nil else { return nil }
            if matcher.matches(host, port: port ?? (secure ? 443 : 80)) { return nil }
            if let problem = unusable[key] { throw problem }
            return proxy
        }
    }
}
