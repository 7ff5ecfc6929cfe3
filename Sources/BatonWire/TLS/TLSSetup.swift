import BatonOpenSSL
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an `HTTP1Transport`'s `https` connections share: the OpenSSL context made from its
/// ``TLSConfiguration`` (the roots it trusts, the versions), and the keys pinned per host.
package final class TLSSetup: Sendable {
    package let context: TLSContext
    package let minimumVersion: TLSVersion
    /// Host (its ``CanonicalHost/name``, as ``TLSConfiguration`` keeps it) to the SHA-256 digests of the public keys it may present.
    private let pins: [String: Set<Data>]

    /// The setup for `configuration`; throws when OpenSSL cannot be had here, or refuses a root.
    package init(_ configuration: TLSConfiguration) throws(URLError) {
        do {
            context = try TLSContext(
                clientTrusting: configuration.additionalTrustedRoots.map { [UInt8]($0) },
                minimumVersion: configuration.minimumVersion == .v1_3 ? .tls1_3 : .tls1_2
            )
        } catch {
            throw URLError(.secureConnectionFailed, detail: "TLS cannot be used: \(error.message)")
        }
        minimumVersion = configuration.minimumVersion
        pins = configuration.pinnedPublicKeys.mapValues { Set($0) }
    }

    /// Checks what the handshake verified against the pins for `host`: nothing to check when
    /// there are none, else some key of the verified chain must be pinned.
    package func check(_ session: TLSSession, host: String, server: String) throws(URLError) {
        guard let pinned = pins[host], !pinned.isEmpty else { return }
        let presented = session.verifiedChainKeyDigests.map { Data($0) }
        guard !presented.contains(where: pinned.contains) else { return }
        let keys = presented.map { "sha256/" + $0.base64EncodedString() }.joined(separator: ", ")
        throw URLError(.serverCertificateUntrusted, detail:
            "the certificate chain of \(server) holds none of the public keys pinned for \(host) (it presented \(keys)); nothing was sent")
    }
}
