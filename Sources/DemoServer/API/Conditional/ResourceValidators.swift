/// The validators and caching fields every resource response carries, so that a client can ask
/// "has it changed?" (`If-None-Match`, `If-Modified-Since`) and "the rest of it, if it is still
/// the same" (`Range` with `If-Range`).
///
/// A route that knows its representation's validators sets them (a photo: an `ETag` from its
/// SHA-256, `Last-Modified`, `Repr-Digest`); for the others, JSON made afresh from the data on every
/// request, the tag is a hash of the body itself, so it changes exactly when the body does.
enum ResourceValidators {
    /// `no-cache`: a cache may keep the response but must check it with the server before each
    /// use, which is what the validators are for.
    static let cacheControl = "no-cache"

    /// The strong tag of a JSON body: its 64-bit FNV-1a hash in 16 hex digits. Not a security
    /// hash; it only has to change when the body does, and it costs one pass over a small body.
    static func jsonETag(of body: some Collection<UInt8>) -> EntityTag {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in body { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return EntityTag(opaque: String(repeating: "0", count: 16 - hex.count) + hex)
    }

    /// `response` with an `ETag` (the route's, or the body's hash), `Cache-Control` and
    /// `Accept-Ranges: bytes` (every resource response honours `Range`).
    static func adding(to response: ServerResponse) -> ServerResponse {
        var response = response
        if response.header("ETag") == nil { response.setHeader("ETag", jsonETag(of: response.body).description) }
        response.setHeader("Cache-Control", cacheControl)
        response.setHeader("Accept-Ranges", "bytes")
        return response
    }
}
