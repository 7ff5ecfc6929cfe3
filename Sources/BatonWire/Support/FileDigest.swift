import BatonOpenSSL
import Foundation

/// The SHA-256 of a file's bytes, read a mebibyte at a time: what a download that goes on from
/// bytes already on disk feeds its digest first, or checks once whole.
package enum FileDigest {
    /// A digest fed the first `count` bytes of `file` (all of them when `count` is `nil`), to be
    /// fed more or finished; `nil` when the file cannot be read, or holds fewer bytes.
    package static func sha256(ofFirst count: Int64? = nil, of file: URL) -> DigestSHA256? {
        let digest = DigestSHA256()
        if count == 0 { return digest }
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        var left = count ?? .max
        while left > 0, let piece = try? handle.read(upToCount: Int(min(left, 1 << 20))), !piece.isEmpty {
            piece.withUnsafeBytes { digest.update($0) }
            left -= Int64(piece.count)
        }
        return count == nil || left == 0 ? digest : nil
    }
}
