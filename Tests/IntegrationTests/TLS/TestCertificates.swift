import DemoServer
import Foundation

/// The test certificates of `Tests/Certificates` (made by its `make-certificates.sh`), read
/// from the source tree.
enum TestCertificates {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Certificates")

    /// A server identity from `NAME.pem` and `NAME.key`: `expired`, `not-yet-valid`,
    /// `other-host`, `self-signed`, `unknown-ca`, `odd-names`.
    static func identity(_ name: String) throws -> DemoServer.TLS {
        DemoServer.TLS(
            certificateChainPEM: try String(contentsOf: folder.appendingPathComponent("\(name).pem"), encoding: .utf8),
            privateKeyPEM: try String(contentsOf: folder.appendingPathComponent("\(name).key"), encoding: .utf8)
        )
    }

    /// The pin (base64 SHA-256 of the public key) in `NAME.spki-sha256`: `localhost`, `other-key`.
    static func pin(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent("\(name).spki-sha256"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
