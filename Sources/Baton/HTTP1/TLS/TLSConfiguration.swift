import Foundation

/// How ``HTTP1Transport`` secures `https` connections: whom it trusts besides the system, which
/// keys it insists on per host, and the oldest TLS version it accepts.
///
/// Whatever is set here, every connection verifies the server's certificate chain (against the
/// system's trusted roots, which `SSL_CERT_FILE` and `SSL_CERT_DIR` can replace, plus
/// ``additionalTrustedRoots``) and that the certificate is for the URL's host name or IP
/// address; nothing here turns that off.
///
/// ```swift
/// var tls = TLSConfiguration()
/// try tls.trustRoots(contentsOf: URL(filePath: "/etc/myapp/private-ca.pem"))
/// try tls.pin("api.example.com", publicKeySHA256: ["sha256/k9Ry6JQwWoTAuJ2aikz9Zus3fytgudcR0/p4ro5IJhI="])
/// var configuration = HTTP1Transport.Configuration()
/// configuration.tls = tls
/// let client = try Client(baseURL: "https://api.example.com/", transport: HTTP1Transport(configuration: configuration))
/// ```
public struct TLSConfiguration: Sendable, Equatable {
    /// Root certificates (DER) trusted besides the system's: a private certificate authority's.
    /// Add them with ``trustRoots(pem:)`` or ``trustRoots(contentsOf:)``.
    public private(set) var additionalTrustedRoots: [Data] = []
    /// The SHA-256 digests of the public keys (SubjectPublicKeyInfo) each host may present,
    /// hosts lower-cased. Set them with ``pin(_:publicKeySHA256:)``.
    public private(set) var pinnedPublicKeys: [String: [Data]] = [:]
    /// The oldest TLS version accepted. Default ``TLSVersion/v1_2``.
    public var minimumVersion: TLSVersion = .v1_2

    /// The defaults: the system's trust, no pins, TLS 1.2 or later.
    public init() {}

    /// Trusts the root certificates in `pem` (one or more `-----BEGIN CERTIFICATE-----` blocks)
    /// besides the system's, for every host.
    ///
    /// - Throws: ``TLSConfigurationError`` when `pem` holds no certificate or a block is not base64.
    public mutating func trustRoots(pem: String) throws(TLSConfigurationError) {
        additionalTrustedRoots += try PEMCertificates.decode(pem)
    }

    /// Trusts the root certificates in the PEM file at `file`: see ``trustRoots(pem:)``.
    ///
    /// - Throws: ``TLSConfigurationError`` when the file cannot be read or holds no certificate.
    public mutating func trustRoots(contentsOf file: URL) throws(TLSConfigurationError) {
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw TLSConfigurationError("the file \(file.path) cannot be read as PEM text (\(error.localizedDescription))")
        }
        do {
            try trustRoots(pem: text)
        } catch {
            throw TLSConfigurationError("\(file.path): \(error.description)")
        }
    }

    /// Accepts a connection to `host` only when its verified certificate chain (the server's
    /// certificate, an intermediate or the root) holds one of these public keys: each the
    /// base64 of the SHA-256 of a DER SubjectPublicKeyInfo, with or without a `sha256/` prefix.
    /// A chain with none of them fails the call before any byte of the request is sent. Pins add
    /// to verification; they never replace it. Calling again for a host replaces its pins; an
    /// empty list removes them.
    ///
    /// Get a certificate's pin with `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin
    /// -outform der | openssl dgst -sha256 -binary | base64`. Pin a backup key too, so that a new
    /// key on the server does not lock the app out.
    ///
    /// - Throws: ``TLSConfigurationError`` when `host` is empty or a pin is not a SHA-256 digest.
    public mutating func pin(_ host: String, publicKeySHA256 pins: [String]) throws(TLSConfigurationError) {
        let key = host.trimmingCharacters(in: .whitespaces).lowercased()
        guard !key.isEmpty else { throw TLSConfigurationError("a pin needs a host name; the host given is empty") }
        var digests: [Data] = []
        for pin in pins {
            var text = pin.trimmingCharacters(in: .whitespaces)
            if text.lowercased().hasPrefix("sha256/") { text.removeFirst(7) }
            guard let digest = Data(base64Encoded: text), digest.count == 32 else {
                throw TLSConfigurationError(
                    "the pin \"\(pin.prefix(80))\" for \(key) is not the base64 of a SHA-256 digest (32 bytes, 44 characters ending in \"=\")")
            }
            digests.append(digest)
        }
        pinnedPublicKeys[key] = digests.isEmpty ? nil : digests
    }
}
