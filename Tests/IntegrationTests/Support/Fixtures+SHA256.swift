import BatonOpenSSL
import Foundation
import TestSupport

// BatonOpenSSL's `SHA256` (DemoServer's and Baton's) gives the digests, since Foundation has
// none on Linux.

extension Fixtures {
    /// The lower-case hex SHA-256 of `data`, as `/_demo/echo` and `Photo.sha256` report it.
    static func sha256Hex(_ data: Data) -> String {
        SHA256.hexDigest(of: data)
    }
}
