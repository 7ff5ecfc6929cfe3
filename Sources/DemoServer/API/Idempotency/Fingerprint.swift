import BatonOpenSSL
/// What makes two requests with the same `Idempotency-Key` "the same request": method, route,
/// the id in the path, and what the route parsed out of the body that matters to its result
/// (a review's content and rating; a photo's SHA-256, filename, type and caption), hashed.
///
/// Semantic rather than byte-for-byte: a retry whose multipart boundary or JSON key order
/// differs is still the same request, and the route computes it from what it parses anyway,
/// so a large upload is never read twice. Hashing keeps what is remembered per key small
/// whatever the body's size.
struct Fingerprint: Sendable, Equatable {
    private let digest: [UInt8]

    /// A fingerprint of `parts`, in order; each is length-prefixed, so `["ab", "c"]` and
    /// `["a", "bc"]` differ.
    init(_ parts: [[UInt8]]) {
        var hasher = SHA256()
        for part in parts {
            var length = UInt64(part.count).bigEndian
            withUnsafeBytes(of: &length) { hasher.update($0) }
            hasher.update(part)
        }
        digest = hasher.finalize()
    }

    /// A fingerprint of text parts, as UTF-8.
    init(_ parts: [String]) {
        self.init(parts.map { Array($0.utf8) })
    }
}
