#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What every TLS connection made from it shares: an `SSL_CTX`, set up once for a client (the
/// roots it trusts, the versions, ALPN) or for a server (its certificate chain and key).
// Configured in init, then only read: OpenSSL lets any number of threads make connections
// from one context at once.
package final class TLSContext: @unchecked Sendable {
    /// The type of OpenSSL's ALPN selection callback.
    typealias ALPNSelect = @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?,
        UnsafePointer<UInt8>?, UInt32, UnsafeMutableRawPointer?
    ) -> Int32

    /// The TLS versions a context may be limited to.
    package enum Version: Int, Sendable, Comparable {
        case tls1_2 = 0x0303
        case tls1_3 = 0x0304

        package static func < (left: Version, right: Version) -> Bool { left.rawValue < right.rawValue }
    }

    let functions: OpenSSLFunctions
    let context: OpaquePointer
    /// Whether connections made from it are clients (they verify the server) or servers.
    let isClient: Bool

    private static let http11 = Array("http/1.1".utf8)

    /// A client's context: the system's trusted roots (OpenSSL's default places, which
    /// `SSL_CERT_FILE` and `SSL_CERT_DIR` override) and `additionalRoots` (DER) trusted, the
    /// server's certificate verified, no version below `minimumVersion`, ALPN offering `http/1.1`.
    package init(clientTrusting additionalRoots: [[UInt8]], minimumVersion: Version = .tls1_2, maximumVersion: Version? = nil) throws(TLSFailure) {
        let functions = try TLSFailure.requireOpenSSL()
        guard let context = functions.SSL_CTX_new(functions.TLS_client_method()) else {
            throw TLSFailure.fromQueue(functions, .setup, "no TLS client context could be made")
        }
        self.functions = functions
        self.context = context
        isClient = true
        try configureCommon(minimumVersion: minimumVersion, maximumVersion: maximumVersion)
        // Verification of the chain; the host is set on each connection.
        functions.SSL_CTX_set_verify(context, 0x01 /* SSL_VERIFY_PEER */, nil)
        _ = functions.SSL_CTX_set_default_verify_paths(context)
        let store = functions.SSL_CTX_get_cert_store(context)
        for (index, der) in additionalRoots.enumerated() {
            let certificate = der.withUnsafeBufferPointer { bytes -> OpaquePointer? in
                var cursor: UnsafePointer<UInt8>? = bytes.baseAddress
                return functions.d2i_X509(nil, &cursor, bytes.count)
            }
            guard let certificate else {
                throw TLSFailure.fromQueue(functions, .setup, "trusted root certificate \(index + 1) is not a valid X.509 certificate")
            }
            _ = functions.X509_STORE_add_cert(store, certificate)
            functions.X509_free(certificate)
        }
        functions.ERR_clear_error()
        let protocols: [UInt8] = [UInt8(Self.http11.count)] + Self.http11
        _ = protocols.withUnsafeBufferPointer { functions.SSL_CTX_set_alpn_protos(context, $0.baseAddress, UInt32($0.count)) }
    }

    /// A server's context presenting `chainPEM` (its certificate first, then the intermediates)
    /// with `privateKeyPEM`, choosing `http/1.1` when a client offers it.
    package init(serverChainPEM chainPEM: String, privateKeyPEM: String, minimumVersion: Version = .tls1_2, maximumVersion: Version? = nil) throws(TLSFailure) {
        let functions = try TLSFailure.requireOpenSSL()
        guard let context = functions.SSL_CTX_new(functions.TLS_server_method()) else {
            throw TLSFailure.fromQueue(functions, .setup, "no TLS server context could be made")
        }
        self.functions = functions
        self.context = context
        isClient = false
        try configureCommon(minimumVersion: minimumVersion, maximumVersion: maximumVersion)
        let certificates = PEMBlocks.certificates(in: chainPEM, functions: functions)
        guard let leaf = certificates.first else { throw TLSFailure(.setup, "the certificate chain holds no PEM certificate") }
        guard functions.SSL_CTX_use_certificate(context, leaf) == 1 else {
            certificates.forEach { functions.X509_free($0) }
            throw TLSFailure.fromQueue(functions, .setup, "the certificate was refused")
        }
        functions.X509_free(leaf)
        for intermediate in certificates.dropFirst() {
            // SSL_CTX_add_extra_chain_cert: the context takes the certificate over.
            _ = functions.SSL_CTX_ctrl(context, 14, 0, UnsafeMutableRawPointer(intermediate))
        }
        guard let key = PEMBlocks.privateKey(in: privateKeyPEM, functions: functions) else {
            throw TLSFailure.fromQueue(functions, .setup, "the private key is not a PEM private key")
        }
        defer { functions.EVP_PKEY_free(key) }
        guard functions.SSL_CTX_use_PrivateKey(context, key) == 1, functions.SSL_CTX_check_private_key(context) == 1 else {
            throw TLSFailure.fromQueue(functions, .setup, "the private key does not match the certificate")
        }
        functions.SSL_CTX_set_alpn_select_cb(context, selectHTTP11, nil)
    }

    deinit {
        functions.SSL_CTX_free(context)
    }

    private func configureCommon(minimumVersion: Version, maximumVersion: Version?) throws(TLSFailure) {
        // SSL_CTX_set_min_proto_version, SSL_CTX_set_max_proto_version.
        guard functions.SSL_CTX_ctrl(context, 123, minimumVersion.rawValue, nil) == 1 else {
            throw TLSFailure.fromQueue(functions, .setup, "the minimum TLS version could not be set")
        }
        if let maximumVersion {
            _ = functions.SSL_CTX_ctrl(context, 124, maximumVersion.rawValue, nil)
        }
        // No compression (CRIME), no renegotiation.
        _ = functions.SSL_CTX_set_options(context, (1 << 17) | (1 << 30))
        // SSL_MODE_RELEASE_BUFFERS: an idle connection keeps no 34 KiB record buffers.
        _ = functions.SSL_CTX_ctrl(context, 33, 0x10, nil)
    }
}

/// Picks `http/1.1` from what a client offers, or goes on without ALPN (OpenSSL's NOACK).
private let selectHTTP11: TLSContext.ALPNSelect = { _, selected, selectedLength, offered, offeredLength, _ in
    guard let offered, let selected, let selectedLength else { return 3 }
    var index = 0
    let count = Int(offeredLength)
    while index < count {
        let length = Int(offered[index])
        let start = index + 1
        guard start + length <= count else { return 3 }
        if length == 8, (0..<8).allSatisfy({ offered[start + $0] == Array("http/1.1".utf8)[$0] }) {
            selected.pointee = offered + start
            selectedLength.pointee = UInt8(length)
            return 0
        }
        index = start + length
    }
    return 3
}
