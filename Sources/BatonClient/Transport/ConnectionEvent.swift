/// What happened to one of a transport's connections: opened, reused for another request, or
/// closed, with why. ``HTTP1Transport`` tells them (``TransferOptions/connectionEvents``), and a
/// client hands them to its monitors as ``ClientEvent/Kind/connection`` events, so that a pool's
/// work can be watched: one connection opened then reused, not one per request.
public struct ConnectionEvent: Sendable, CustomStringConvertible {
    /// What happened. Compare with `==`, or `switch` with a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// A new connection was opened for a request.
        public static let opened = Kind(name: "opened")
        /// A kept-alive connection carries another request.
        public static let reused = Kind(name: "reused")
        /// The connection was closed; ``ConnectionEvent/reason`` says why.
        public static let closed = Kind(name: "closed")
        /// Requests like this one go to another transport, which tells of no connections;
        /// ``ConnectionEvent/reason`` says why (a client's default transport on Linux, when
        /// OpenSSL cannot be loaded, hands `https` to URLSession). Told once; its
        /// ``ConnectionEvent/connection`` is 0.
        public static let handedOver = Kind(name: "handed over")

        /// The kind's name.
        public var description: String { name }
    }

    /// What happened.
    public let kind: Kind
    /// The server it connects to, as `host:port`: the origin, also when a proxy is between.
    public let server: String
    /// The proxy the connection goes through, as `host:port`; `nil` when it goes directly.
    public let proxy: String?
    /// For ``Kind/opened``: the address the connection reached, as `127.0.0.1:8080` or
    /// `[::1]:8080`, the first of the host's addresses to answer (or the proxy's); `nil` for the
    /// other kinds.
    public let address: String?
    /// The connection's number, unique within its transport: the events of one connection share it.
    public let connection: Int
    /// Why it closed, for ``Kind/closed``, as in `the server asked to close it`.
    public let reason: String?
    /// For a TLS connection ``Kind/opened``: the version, cipher suite and application protocol
    /// agreed, as in `TLSv1.3, TLS_AES_256_GCM_SHA384, http/1.1`.
    public let security: String?

    init(_ kind: Kind, server: String, connection: Int, proxy: String? = nil, address: String? = nil, reason: String? = nil, security: String? = nil) {
        self.kind = kind
        self.server = server
        self.proxy = proxy
        self.address = address
        self.connection = connection
        self.reason = reason
        self.security = security
    }

    /// As in `connection 3 to 127.0.0.1:8080 closed: idle for 60 seconds`,
    /// `connection 1 to localhost:8443 opened at [::1]:8443 (TLSv1.3, TLS_AES_256_GCM_SHA384, http/1.1)`,
    /// or `connection 2 to api.example.com:443 via proxy.internal:3128 reused`.
    public var description: String {
        "connection \(connection) to \(server)" + (proxy.map { " via \($0)" } ?? "") + " \(kind)"
            + (address.map { " at \($0)" } ?? "") + (security.map { " (\($0))" } ?? "") + (reason.map { ": \($0)" } ?? "")
    }
}
