extension DemoServer {
    /// How a server speaks `https`: the certificate chain it presents and its private key, PEM.
    ///
    /// ```swift
    /// let server = try DemoServer.start(configuration: .init(tls: .loopback))
    /// // server.baseURL is https://127.0.0.1:<port>; trust DemoServer.TLS.loopbackRootCertificatePEM
    /// ```
    public struct TLS: Sendable {
        /// The server's certificate first, then the intermediates that issued it, PEM.
        public var certificateChainPEM: String
        /// The certificate's private key, PEM.
        public var privateKeyPEM: String
        /// Whether TLS 1.3 is offered; `false` limits the server to TLS 1.2, for testing a client
        /// that insists on 1.3. Default `true`.
        public var offersTLS13 = true

        /// A server identity from PEM text.
        public init(certificateChainPEM: String, privateKeyPEM: String) {
            self.certificateChainPEM = certificateChainPEM
            self.privateKeyPEM = privateKeyPEM
        }

        /// A test identity for `localhost`, `127.0.0.1` and `::1`, issued through an intermediate
        /// by the test root ``loopbackRootCertificatePEM``, valid until the end of 2125. Its
        /// private key is public (in this package's source): for loopback tests and demos only.
        public static let loopback = TLS(certificateChainPEM: DemoCertificates.chain, privateKeyPEM: DemoCertificates.privateKey)

        /// The root certificate that issued ``loopback``'s chain, PEM: what a client trusts to
        /// talk to a server using it.
        public static let loopbackRootCertificatePEM = DemoCertificates.rootAuthority
    }
}
