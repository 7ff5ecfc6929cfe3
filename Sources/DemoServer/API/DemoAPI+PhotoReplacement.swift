/// `PUT /photos/:id`: new bytes for a stored photo, so that a client can meet a resource that
/// changes between two requests (a download resumed after the photo was replaced).
extension DemoAPI {
    /// Replaces the photo's bytes with the body, `image/jpeg` or `image/png` (415 otherwise; 404
    /// for an unknown photo; the server's body limit applies, 413): its SHA-256, `ETag`,
    /// `Last-Modified` and size change, its id, review and filename stay. Answers 200 with the
    /// photo's JSON.
    func replacePhoto(_ id: Int, _ exchange: HTTPExchange) throws(Refusal) -> ServerResponse {
        guard state.withLock({ $0.data.photos[id] != nil }) else { throw Refusal(404, "not_found") }
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
        let digest = hasher.finalize()
        let photo = state.withLock { state -> DemoData.Photo? in
            // The photo may have gone (a reset) while the body was read.
            state.data.photos[id]?.replace(bytes: bytes, digest: digest, contentType: type, now: DateHeader.seconds())
            return state.data.photos[id]
        }
        guard let photo else { throw Refusal(404, "not_found") }
        return .json(200, photo.json)
    }
}
