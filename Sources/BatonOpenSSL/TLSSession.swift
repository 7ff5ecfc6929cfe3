#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One TLS connection's state, with no I/O of its own: encrypted bytes from the peer are fed in
/// (``feed(_:)``), encrypted bytes for the peer are taken out (``takeOutput(into:)``), and the
/// caller moves them over its socket, with its own timeouts, cancellation and signals. Plain
/// bytes go in with ``write(_:)`` and come out with ``read(into:)``.
///
/// Between the two sides sit OpenSSL memory buffers, never holding more than one socket read
/// in and one write's records out, so memory stays bounded whatever the peer sends. One thread
/// uses a session at a time.
package final class TLSSession {
    /// How a handshake step ended.
    package enum HandshakeStep {
        /// The connection is secure: application data may flow.
        case done
        /// More bytes from the peer are needed (after sending any output).
        case needsInput
        case failed(TLSFailure)
    }

    /// How a read ended.
    package enum ReadOutcome {
        /// This many plain bytes were read.
        case read(Int)
        /// More bytes from the peer are needed (after sending any output).
        case needsInput
        /// The peer closed the TLS connection (its `close_notify`).
        case closed
        case failed(TLSFailure)
    }

    let functions: OpenSSLFunctions
    /// Held so that the context lives as long as its connection.
    let context: TLSContext
    private let ssl: OpaquePointer
    /// Owned by `ssl`: the peer's encrypted bytes, fed in.
    private let incoming: OpaquePointer
    /// Owned by `ssl`: encrypted bytes waiting to be sent.
    private let outgoing: OpaquePointer

    /// A client's session with the server at `host` (a name or an IP address): SNI names the
    /// host (never an address, as RFC 6066 says), and the certificate must be issued for it.
    package convenience init(client context: TLSContext, host: String) throws(TLSFailure) {
        try self.init(context: context)
        functions.SSL_set_connect_state(ssl)
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if Self.isIPAddress(bare) {
            guard functions.X509_VERIFY_PARAM_set1_ip_asc(functions.SSL_get0_param(ssl), bare) == 1 else {
                throw TLSFailure.fromQueue(functions, .setup, "\(bare) is not an IP address OpenSSL can check")
            }
        } else {
            functions.SSL_set_hostflags(ssl, 0x4 /* X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS */)
            guard functions.SSL_set1_host(ssl, bare) == 1,
                  bare.withCString({ functions.SSL_ctrl(ssl, 55, 0, UnsafeMutableRawPointer(mutating: $0)) }) == 1 else {
                throw TLSFailure.fromQueue(functions, .setup, "the host name \(bare) could not be set for verification")
            }
        }
    }

    /// A server's session.
    package convenience init(server context: TLSContext) throws(TLSFailure) {
        try self.init(context: context)
        functions.SSL_set_accept_state(ssl)
    }

    private init(context: TLSContext) throws(TLSFailure) {
        let functions = context.functions
        functions.ERR_clear_error()
        guard let ssl = functions.SSL_new(context.context) else {
            throw TLSFailure.fromQueue(functions, .setup, "no TLS connection could be made")
        }
        guard let incoming = functions.BIO_new(functions.BIO_s_mem()), let outgoing = functions.BIO_new(functions.BIO_s_mem()) else {
            functions.SSL_free(ssl)
            throw TLSFailure.fromQueue(functions, .setup, "no TLS buffers could be made")
        }
        functions.SSL_set_bio(ssl, incoming, outgoing)
        self.functions = functions
        self.context = context
        self.ssl = ssl
        self.incoming = incoming
        self.outgoing = outgoing
    }

    deinit {
        functions.SSL_free(ssl)
    }

    /// Takes the handshake as far as the bytes fed allow.
    package func handshake() -> HandshakeStep {
        functions.ERR_clear_error()
        let result = functions.SSL_do_handshake(ssl)
        if result == 1 { return .done }
        switch functions.SSL_get_error(ssl, result) {
        case 2, 3: return .needsInput  // SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE
        default: return .failed(TLSFailure.fromQueue(functions, .handshake, "the TLS handshake failed"))
        }
    }

    /// Hands the session encrypted bytes from the peer.
    package func feed(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        _ = functions.BIO_write(incoming, base, Int32(clamping: bytes.count))
    }

    /// Reads plain bytes into `buffer`.
    package func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadOutcome {
        functions.ERR_clear_error()
        let count = functions.SSL_read(ssl, buffer.baseAddress, Int32(clamping: buffer.count))
        if count > 0 { return .read(Int(count)) }
        switch functions.SSL_get_error(ssl, count) {
        case 2, 3: return .needsInput
        case 6: return .closed  // SSL_ERROR_ZERO_RETURN: close_notify
        default: return .failed(TLSFailure.fromQueue(functions, .transfer, "a TLS record could not be read"))
        }
    }

    /// Encrypts all of `bytes` into the output, to be taken and sent.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(TLSFailure) {
        guard var base = bytes.baseAddress else { return }
        var left = bytes.count
        while left > 0 {
            functions.ERR_clear_error()
            let written = functions.SSL_write(ssl, base, Int32(clamping: left))
            guard written > 0 else { throw TLSFailure.fromQueue(functions, .transfer, "a TLS record could not be written") }
            base += Int(written)
            left -= Int(written)
        }
    }

    /// How many encrypted bytes wait to be sent.
    package var outputCount: Int { functions.BIO_ctrl(outgoing, 10 /* BIO_CTRL_PENDING */, 0, nil) }

    /// Moves waiting encrypted bytes into `buffer`: the count moved.
    package func takeOutput(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard outputCount > 0 else { return 0 }
        return max(0, Int(functions.BIO_read(outgoing, buffer.baseAddress, Int32(clamping: buffer.count))))
    }

    /// Whether bytes the peer sent are buffered here, not yet read: a plain byte decrypted, or an
    /// encrypted one not yet looked at.
    package var hasBufferedInput: Bool {
        functions.SSL_pending(ssl) > 0 || functions.BIO_ctrl(incoming, 10, 0, nil) > 0
    }

    /// Queues the `close_notify` alert, to be taken and sent.
    package func close() {
        functions.ERR_clear_error()
        _ = functions.SSL_shutdown(ssl)
        functions.ERR_clear_error()
    }

    // MARK: After the handshake

    /// OpenSSL's verification result, `X509_V_OK` (0) when the chain and host verified.
    package var verifyResult: Int { functions.SSL_get_verify_result(ssl) }

    /// What the certificates the peer sent say, its own first: known even when they did not
    /// verify, for the sentence saying why.
    package var presentedChain: [PeerCertificate] {
        guard let chain = functions.SSL_get_peer_cert_chain(ssl) else { return [] }
        return (0..<min(functions.OPENSSL_sk_num(chain), 10)).compactMap { index in
            functions.OPENSSL_sk_value(chain, index).map { PeerCertificate(OpaquePointer($0), functions: functions) }
        }
    }

    /// The SHA-256 of each public key (SubjectPublicKeyInfo) of the verified chain, the peer's
    /// own first and the trusted root last.
    package var verifiedChainKeyDigests: [[UInt8]] {
        guard let chain = functions.SSL_get0_verified_chain(ssl) else { return [] }
        return (0..<functions.OPENSSL_sk_num(chain)).compactMap { index in
            guard let certificate = functions.OPENSSL_sk_value(chain, index) else { return nil }
            return PeerCertificate.publicKeyDigest(OpaquePointer(certificate), functions: functions)
        }
    }

    /// The version, cipher and application protocol agreed, as in `TLSv1.3`,
    /// `TLS_AES_256_GCM_SHA384`, `http/1.1`.
    package var negotiated: (version: String, cipher: String, applicationProtocol: String?) {
        let version = functions.SSL_get_version(ssl).map { String(cString: $0) } ?? "TLS"
        let cipher = functions.SSL_CIPHER_get_name(functions.SSL_get_current_cipher(ssl)).map { String(cString: $0) } ?? "unknown cipher"
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        functions.SSL_get0_alpn_selected(ssl, &data, &length)
        let alpn = data.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self) }
        return (version, cipher, length == 0 ? nil : alpn)
    }

    /// On a server, the host name the client asked for (SNI), if it sent one.
    package var requestedServerName: String? {
        functions.SSL_get_servername(ssl, 0 /* TLSEXT_NAMETYPE_host_name */).map { String(cString: $0) }
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    static func isIPAddress(_ host: String) -> Bool {
        var storage = in6_addr()
        return inet_pton(AF_INET, host, &storage) == 1 || inet_pton(AF_INET6, host, &storage) == 1
    }
}
