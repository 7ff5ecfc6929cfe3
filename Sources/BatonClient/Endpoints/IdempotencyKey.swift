import Foundation

/// Keys for `Idempotency-Key` (the IETF httpapi draft): one per logical request, made once and
/// sent with every attempt of it, so that a server that honours keys stores a photo once even
/// when its response was lost and the upload was sent again.
///
/// ```swift
/// var review = Request<Review>(.post, "facilities/1/reviews", body: .json(newReview))
/// review.idempotencyKey = IdempotencyKey.make()
/// ```
///
/// A key is sent as the draft's structured-field string: `Idempotency-Key: "<key>"`. A key of
/// your own must be 1 to 255 visible ASCII characters, without `"` or `\`; another fails the call
/// with an ``APIError`` of kind ``APIError/Kind/invalidRequest`` before anything is sent.
public enum IdempotencyKey {
    /// The header field's name.
    public static let headerName = "Idempotency-Key"

    /// A new key: a random UUID, unique to this logical request.
    public static func make() -> String {
        UUID().uuidString.lowercased()
    }

    /// The field's value for `key`, or why `key` cannot be one.
    static func fieldValue(for key: String) -> Result<String, RefusedKey> {
        let bytes = key.utf8
        guard !bytes.isEmpty, bytes.count <= 255 else { return .failure(RefusedKey(reason: "it must be 1 to 255 characters long")) }
        guard bytes.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) else {
            return .failure(RefusedKey(reason: "it may hold visible ASCII characters only, and no \" or \\"))
        }
        return .success("\"" + key + "\"")
    }

    /// Why a key was refused, for the call's error.
    struct RefusedKey: Error {
        var reason: String
    }
}
