@testable import DemoServer
import Foundation

// Only this file imports DemoServer's internals (its `SHA256`, since Foundation has no digest on
// Linux): DemoServer also has an internal `HTTPResponse`, which would clash with Baton's in a file
// that imports both.

extension LiveAPI {
    /// The lower-case hex SHA-256 of `data`, as `/_demo/echo` and `Photo.sha256` report it.
    static func sha256Hex(_ data: Data) -> String {
        SHA256.hexDigest(of: data)
    }
}
