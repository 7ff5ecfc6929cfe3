import Foundation

/// How `HTTP1Transport` secures `https` connections: whom it trusts besides the system, which
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
    /// The SHA-256 digests of the public keys (SubjectPublicKeyInfo) each host may present, by
    /// the host's one spelling: lower-cased, an IPv4 address dotted-decimal, an IPv6 address
    /// compressed without brackets (a pin for `[0:0::1]` is kept for `::1`, and holds for a URL
    /// that writes either). Set them with ``pin(_:publicKeySHA256:)``.
    public private(set) var pinnedPublicKeys: [String: [Data]] = [:]
    /// The oldest TLS version accepted. Default ``TLSVersion/v1_2``.
    public var minimumVersion: TLSVersion = .v1_2

    /// The defaults: the system's trust, no pins, TLS 1.2 or later.
    public init() {}

    /// Trusts the root certificates in `pem` (one or more `-----BEGIN CERTIFICATE-----` blocks)
    /// besides the system's, for every host. A self-signed server certificate is its own root.
    ///
    /// - Throws: ``TLSConfigurationError`` when `pem` holds no certificate or a block is not base64.
    public mutating func trustRoots(pem: String) throws(TLSConfigurationError) {
        additionalTrustedRoots += try PEMCertificates.decode(pem)
    }

    /// Trusts the root certificates in the PEM file at `file`: see ``trustRoots(pem:)``.
    ///
    /// - Throws: ``TLSConfigurationError`` when the file cannot be read or holds no certificate.
    public mutating func trustRoots(contentsOf file: URL) throws(TLSConfigurationError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder), isFolder.boolValue {
            throw TLSConfigurationError("\(file.path) is a folder; give the PEM file of the root certificate in it")
        }
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: file.path) ? "it is not UTF-8 text" : "there is no such file"
            throw TLSConfigurationError("the file \(file.path) cannot be read as PEM text (\(reason))")
        }
        do {
            try trustRoots(pem: text)
        } catch {
            throw TLSConfigurationError("\(file.path): \(error.description)")
        }
    }

    /// Accepts a connection to `host` only when its verified certificate chain (the server's
    /// certificate, an intermediate or the root) holds one of these public keys: each the
    /// SHA-256 of a DER SubjectPublicKeyInfo, in base64 (with or without a `sha256/` prefix, as
    /// HPKP and OkHttp write it) or in hex. A chain with none of them fails the call before any
    /// byte of the request is sent. Pins add to verification; they never replace it.
    ///
    /// `host` is the host as URLs name it (`api.example.com`, `127.0.0.1`, `::1`), without a
    /// scheme or port, and is matched exactly (case aside): a pin for `localhost` does not apply
    /// to `127.0.0.1`. Calling again for a host replaces its pins; an empty list removes them.
    ///
    /// Get a certificate's pin with `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin
    /// -outform der | openssl dgst -sha256 -binary | base64`. Pin a backup key too, so that a new
    /// key on the server does not lock the app out.
    ///
    /// - Throws: ``TLSConfigurationError`` when `host` is not a host name or address, or a pin is
    ///   not a SHA-256 digest.
    public mutating func pin(_ host: String, publicKeySHA256 pins: [String]) throws(TLSConfigurationError) {
        let key = try Self.pinnedHost(host)
        var digests: [Data] = []
        for pin in pins {
            digests.append(try Self.digest(pin, host: key))
        }
        pinnedPublicKeys[key] = digests.isEmpty ? nil : digests
    }

    /// `host` lower-cased, or why it is not a host.
    private static func pinnedHost(_ host: String) throws(TLSConfigurationError) -> String {
        var key = host.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard !key.isEmpty else { throw TLSConfigurationError("a pin needs a host name; the host given is empty") }
        if key.hasPrefix("["), key.hasSuffix("]") { key = String(key.dropFirst().dropLast()) }
        let written = MessageText.escaped(String(host.prefix(80)))
        if key.contains("/") || key.contains("@") {
            throw TLSConfigurationError("\"\(written)\" is not a host name: give the host alone, as in api.example.com, without a scheme or path")
        }
        let colons = key.filter { $0 == ":" }.count
        if colons == 1, let port = key.split(separator: ":").last, Int(port) != nil {
            throw TLSConfigurationError("\"\(written)\" is not a host name: give the host alone, without the port (pins apply to every port of a host)")
        }
        // Kept as the transport names the host it connects to, so that no other spelling of it
        // (`[0:0::1]`, `127.1`, `API.example.com.`) slips past the pin.
        do throws(URLError) {
            return try CanonicalHost(parsing: key).name
        } catch {
            throw TLSConfigurationError("\"\(written)\" is not a host name or address: \(error.detail ?? "it cannot be read as one")")
        }
    }

    /// The 32 bytes `pin` writes, or why it writes none.
    private static func digest(_ pin: String, host: String) throws(TLSConfigurationError) -> Data {
        var text = pin.trimmingCharacters(in: .whitespacesAndNewlines)
        let written = "\"\(MessageText.escaped(String(text.prefix(80))))\""
        // A digest's name before a slash, as HPKP writes pins; base64 has slashes of its own.
        if let slash = text.firstIndex(of: "/"), ["md5", "sha1", "sha224", "sha256", "sha384", "sha512"].contains(text[..<slash].lowercased()) {
            let algorithm = text[..<slash].lowercased()
            guard algorithm == "sha256" else {
                throw TLSConfigurationError("the pin \(written) for \(host) is a \(algorithm) digest; pins are SHA-256 digests of the public key (sha256/...)")
            }
            text.removeFirst(7)
        }
        if text.count == 64, text.allSatisfy(\.isHexDigit) {
            var bytes = Data()
            var index = text.startIndex
            while index < text.endIndex {
                let next = text.index(index, offsetBy: 2)
                bytes.append(UInt8(text[index..<next], radix: 16)!)
                index = next
            }
            return bytes
        }
        guard let digest = Data(base64Encoded: text), digest.count == 32 else {
            throw TLSConfigurationError(
                "the pin \(written) for \(host) is not a SHA-256 digest: 44 characters of base64 ending in \"=\", or 64 hex digits")
        }
        return digest
    }
}
