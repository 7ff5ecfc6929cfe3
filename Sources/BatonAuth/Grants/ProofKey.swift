import Foundation
import BatonOpenSSL

/// A Proof Key for Code Exchange (RFC 7636): the secret that ties an authorization code to the app
/// that asked for it, so that a code intercepted on its way back through the redirect is useless.
///
/// The ``verifier`` stays in the app until the code is exchanged; the ``challenge`` derived from it
/// goes in the authorization URL, and the server checks one against the other.
struct ProofKey: Sendable {
    /// 43 characters of `[A-Za-z0-9-_]`: 256 random bits, base64url-encoded (RFC 7636 §4.1).
    let verifier: String

    /// A new key from 32 bytes of the system's random generator.
    static func random() -> ProofKey {
        ProofKey(verifier: RandomText.base64URL(bytes: 32))
    }

    /// `BASE64URL(SHA256(verifier))`: the `S256` method (RFC 7636 §4.2), the only one Baton sends,
    /// since `plain` would put the verifier itself in the URL.
    var challenge: String {
        var hasher = SHA256()
        hasher.update(Array(verifier.utf8))
        return RandomText.base64URL(hasher.finalize())
    }
}

/// Unguessable values for the grants: PKCE verifiers, and the `state` that ties a redirect to the
/// authorization that asked for it.
enum RandomText {
    /// `count` bytes of the system's cryptographically secure generator, base64url-encoded.
    static func base64URL(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return base64URL((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// `bytes` in base64url without padding (RFC 4648 §5, as RFC 7636 Appendix A asks).
    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
