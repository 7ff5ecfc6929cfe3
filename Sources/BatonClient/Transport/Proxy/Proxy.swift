import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

extension HTTP1Transport {
    /// A proxy an ``HTTP1Transport`` connects through: an HTTP proxy, or a SOCKS5 one, with the
    /// credentials it asks for.
    ///
    /// ```swift
    /// let corporate = try HTTP1Transport.Proxy("http://alice:s3cret@proxy.internal:3128")
    /// let tunnel = try HTTP1Transport.Proxy("socks5h://127.0.0.1:1080")
    /// ```
    ///
    /// Through an HTTP proxy, an `http` request goes to the proxy in absolute form, and an
    /// `https` one through a `CONNECT` tunnel, TLS running end to end with the origin: the
    /// certificate is checked, and pins apply, for the origin's host, never the proxy's. Through
    /// a SOCKS5 proxy (RFC 1928), both go through the tunnel it opens.
    ///
    /// The credentials go to the proxy alone: as `Proxy-Authorization: Basic` to an HTTP proxy
    /// (on the `CONNECT`, never inside the tunnel), or by RFC 1929 to a SOCKS5 one. The password
    /// is never printed: ``description`` shows `<redacted>` in its place.
    public struct Proxy: Hashable, Sendable, CustomStringConvertible, CustomReflectable {
        /// How the transport speaks to the proxy. Compare with `==`, or `switch` with a `default`.
        public struct Kind: Hashable, Sendable, CustomStringConvertible {
            private let name: String

            /// An HTTP proxy (`http://`): `CONNECT` for `https`, absolute-form requests for `http`.
            public static let http = Kind(name: "http")
            /// A SOCKS5 proxy (`socks5://`), given the address the origin's name resolves to here.
            public static let socks5 = Kind(name: "socks5")
            /// A SOCKS5 proxy (`socks5h://`) given the origin's name, to resolve itself: what a
            /// proxy into a network whose names only it can resolve needs.
            public static let socks5h = Kind(name: "socks5h")

            /// The URL scheme that names it: `http`, `socks5`, `socks5h`.
            public var description: String { name }

            static let all: [Kind] = [.http, .socks5, .socks5h]
        }

        /// How the transport speaks to the proxy.
        public let kind: Kind
        /// The proxy's host, as ``HTTP1Transport`` spells every host (lower-cased; an IPv6
        /// address without brackets).
        public let host: String
        /// The proxy's port.
        public let port: Int
        /// The username the proxy is signed in to with, if any.
        public let username: String?
        /// The password, never printed.
        let password: String?
        let canonicalHost: CanonicalHost

        /// The port a proxy URL without one means, as curl reads it.
        static let defaultPort = 1080

        /// The proxy `url` names, as curl reads one: `http://`, `socks5://` or `socks5h://`,
        /// credentials percent-encoded before an `@`, and the port (1080, as curl reads it, when
        /// none is written). Without a scheme, an HTTP proxy: `proxy.internal:3128`.
        ///
        /// - Throws: `URLError` `.unsupportedURL` for another scheme (`https://`, a proxy spoken to
        ///   over TLS, and `socks4://` are not supported), `.badURL` for a URL that is not a
        ///   proxy's (no host, a path or a query, credentials a proxy cannot be given), saying
        ///   why; the password is never in the sentence.
        public init(_ url: String) throws(URLError) {
            let text = url.trimmingCharacters(in: .whitespaces)
            let written = text.contains("://") ? text : "http://" + text
            guard let components = URLComponents(string: written), let scheme = components.scheme?.lowercased() else {
                throw URLError(.badURL, detail: "the proxy URL \(Self.shown(text)) cannot be read")
            }
            guard let kind = Kind.all.first(where: { $0.description == scheme }) else {
                throw URLError(.unsupportedURL, detail: "the proxy URL \(Self.shown(text)) has the scheme \(MessageText.escaped(scheme)): "
                    + "HTTP1Transport speaks to proxies over http, socks5 and socks5h, not over TLS (https) or socks4")
            }
            guard components.percentEncodedPath.isEmpty || components.percentEncodedPath == "/",
                  components.percentEncodedQuery == nil, components.fragment == nil else {
                throw URLError(.badURL, detail: "the proxy URL \(Self.shown(text)) has a path or a query: a proxy is named by its host and port alone")
            }
            guard let host = components.percentEncodedHost, !host.isEmpty else {
                throw URLError(.badURL, detail: "the proxy URL \(Self.shown(text)) has no host")
            }
            try self.init(kind, host: host, port: components.port ?? Self.defaultPort,
                          username: components.user.flatMap { $0.isEmpty ? nil : $0 }, password: components.password)
        }

        /// A proxy of `kind` at `host`:`port`, signed in to with `username` and `password` when
        /// given.
        ///
        /// - Throws: `URLError(.badURL)` saying why, when `host` is not one (see
        ///   ``HTTP1Transport``), the port is outside 1...65535, a password comes without a
        ///   username, an HTTP proxy's username holds a `:` (Basic cannot carry it), or a SOCKS5
        ///   one's username or password is longer than RFC 1929's 255 bytes.
        public init(_ kind: Kind, host: String, port: Int, username: String? = nil, password: String? = nil) throws(URLError) {
            canonicalHost = try CanonicalHost(parsing: host)
            guard (1...65535).contains(port) else { throw URLError(.badURL, detail: "the proxy \(canonicalHost.uriForm) has the port \(port), outside 1...65535") }
            let server = "\(canonicalHost.uriForm):\(port)"
            if password != nil, username == nil {
                throw URLError(.badURL, detail: "the proxy \(server) is given a password without a username")
            }
            if let username {
                if kind == .http, username.contains(":") {
                    throw URLError(.badURL, detail: "the username for the proxy \(server) holds a \":\", which Basic credentials cannot carry")
                }
                if kind != .http, username.utf8.count > 255 || (password ?? "").utf8.count > 255 || username.isEmpty {
                    throw URLError(.badURL, detail: "the username and password for the SOCKS5 proxy \(server) must be 1 to 255 bytes each (RFC 1929)")
                }
            }
            self.kind = kind
            self.host = canonicalHost.name
            self.port = port
            self.username = username
            self.password = username == nil ? nil : password ?? ""
        }

        /// `http://alice:<redacted>@proxy.internal:3128`: the password never shows.
        public var description: String {
            let credentials = username.map { "\(MessageText.escaped($0)):\(Redaction.placeholder)@" } ?? ""
            return "\(kind)://\(credentials)\(server)"
        }

        /// What `dump` and debuggers show: the kind, host, port and username, never the password.
        public var customMirror: Mirror {
            Mirror(self, children: ["kind": kind, "host": host, "port": port, "username": username as Any], displayStyle: .struct)
        }

        /// `host:port`, as sentences and connection events name the proxy.
        var server: String { "\(canonicalHost.uriForm):\(port)" }

        /// The `Proxy-Authorization` value for an HTTP proxy with credentials.
        var authorization: String? {
            guard let username else { return nil }
            return "Basic " + Data("\(username):\(password ?? "")".utf8).base64EncodedString()
        }

        /// A proxy URL shown in a sentence: whatever came before an `@` (credentials) left out.
        static func shown(_ url: String) -> String {
            guard let at = url.lastIndex(of: "@") else { return "\"\(MessageText.escaped(url))\"" }
            let scheme = url.range(of: "://").map { String(url[..<$0.upperBound]) } ?? ""
            return "\"\(MessageText.escaped(scheme))\(Redaction.placeholder)@\(MessageText.escaped(String(url[url.index(after: at)...])))\""
        }
    }
}
