import BatonOpenSSL
/// `PUT /photos/:id`: new bytes for a stored photo, so that a client can meet a resource that
/// changes between two requests (a download resumed after the photo was replaced).
extension DemoAPI {
    /// The new bytes of a photo, read and hashed, not yet stored.
    struct Replacement {
        var type: String
        var bytes: [UInt8]
        var digest: [UInt8]
    }

    /// Replaces the photo's bytes with the body, `image/jpeg` or `image/png` (415 otherwise; 404
    /// for an unknown photo; the server's body limit applies, 413): its SHA-256, `ETag`,
    /// `Last-Modified` and size change, its id, review and filename stay. Answers 200 with the
    /// photo's JSON; with an `Idempotency-Key`, once per key.
    func replacePhoto(_ id: Int, _ exchange: HTTPExchange, claim: IdempotencyClaim?) throws(Refusal) -> ServerResponse {
        try once(claim, base: ["PUT", Route.replacePhoto.pattern, String(id)]) { () throws(Refusal) in
            let replacement = try readReplacement(photoID: id, exchange)
            return (replacement, [replacement.digest, Array(replacement.type.utf8)])
        } commit: { (replacement: Replacement) throws(Refusal) in
            let photo = state.withLock { state -> DemoData.Photo? in
                // The photo may have gone (a reset) while the body was read.
                state.data.photos[id]?.replace(
                    bytes: replacement.bytes, digest: replacement.digest, contentType: replacement.type, now: DateHeader.seconds()
                )
                return state.data.photos[id]
            }
            guard let photo else { throw Refusal(404, "not_found") }
            return .json(200, photo.json)
        }
    }

    private func readReplacement(photoID: Int, _ exchange: HTTPExchange) throws(Refusal) -> Replacement {
        guard state.withLock({ $0.data.photos[photoID] != nil }) else { throw Refusal(404, "not_found") }
        guard let type = mediaType(exchange.head), PhotoUpload.photoTypes.contains(type) else {
            throw Refusal(415, "body must be image/jpeg or image/png")
        }
        var hasher = SHA256()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(exchange.body.count)
        guard exchange.body.forEachPiece({ piece in
            hasher.update(piece)
            bytes.append(contentsOf: piece)
        }) else { throw Refusal(500, "the request body could not be read back from disk") }
        return Replacement(type: type, bytes: bytes, digest: hasher.finalize())
    }
}
