/// Photo upload (`multipart/form-data`) and download.
extension DemoAPI {
    /// A photo as an upload delivered it, not yet stored.
    struct PhotoDraft {
        var type: String
        var filename: String
        var bytes: [UInt8]
        var digest: [UInt8]
    }

    /// `POST /reviews/:review_id/photos`: stores the `photo` part of a multipart body on the
    /// review; with an `Idempotency-Key`, once per key.
    func createPhoto(reviewID: Int, _ exchange: HTTPExchange, claim: IdempotencyClaim?) throws(Refusal) -> ServerResponse {
        try once(claim, base: ["POST", Route.createPhoto.pattern, String(reviewID)]) { () throws(Refusal) in
            let (draft, caption) = try parsePhotoUpload(reviewID: reviewID, exchange)
            return (draft, [draft.digest, Array(draft.filename.utf8), Array(draft.type.utf8), caption])
        } commit: { (draft: PhotoDraft) throws(Refusal) in
            let photo = state.withLock { state -> DemoData.Photo? in
                // The review may have gone (a reset) while the body was parsed.
                guard state.data.reviews[reviewID] != nil else { return nil }
                let photo = DemoData.Photo(
                    id: state.data.nextPhotoID, reviewID: reviewID, contentType: draft.type, filename: draft.filename,
                    bytes: draft.bytes, digest: draft.digest, lastModified: DateHeader.seconds()
                )
                state.data.nextPhotoID += 1
                state.data.photos[photo.id] = photo
                state.data.reviews[reviewID]?.photoURLs.append(photo.url)
                state.stats.photosStored += 1
                return photo
            }
            guard let photo else { throw Refusal(404, "not_found") }
            return .json(201, photo.json, headers: [("Location", photo.url)])
        }
    }

    /// The photo and caption of an upload, checked and hashed in one pass over the body; nothing
    /// is stored yet.
    private func parsePhotoUpload(reviewID: Int, _ exchange: HTTPExchange) throws(Refusal) -> (PhotoDraft, caption: [UInt8]) {
        guard state.withLock({ $0.data.reviews[reviewID] != nil }) else { throw Refusal(404, "not_found") }
        guard let type = exchange.head.headers["Content-Type"].flatMap(HeaderParameters.parse),
              type.value == "multipart/form-data"
        else { throw Refusal(415, "body must be multipart/form-data") }
        guard let boundary = type["boundary"], var parser = MultipartParser(boundary: boundary) else {
            throw Refusal(422, "multipart/form-data without a valid boundary")
        }
        var upload = PhotoUpload()
        var complete = true
        do throws(MultipartParser.Failure) {
            complete = try exchange.body.forEachPiece { (piece) throws(MultipartParser.Failure) in
                parser.append(piece)
                while let event = try parser.next() { try upload.consume(event) }
            }
            if complete { try parser.finish() }
        } catch {
            throw Refusal(422, error.message)
        }
        guard complete else { throw Refusal(500, "the request body could not be read back from disk") }
        guard let received = upload.finishedPhoto() else { throw Refusal(422, "no photo part") }
        let draft = PhotoDraft(type: received.type, filename: received.filename, bytes: received.bytes, digest: received.digest)
        return (draft, upload.caption)
    }

    /// `GET /photos/:id`: the bytes, with the validators that let a client fetch them in ranges
    /// and resume, and, when the request asks for it (`Want-Repr-Digest: sha-256=N`, RFC 9530
    /// §4), the digest to check what it put together against.
    func photo(_ id: Int, _ head: HTTPRequestHead) throws(Refusal) -> ServerResponse {
        guard let photo = state.withLock({ $0.data.photos[id] }) else { throw Refusal(404, "not_found") }
        var headers = photo.representationHeaders
        if Self.wantsSHA256(head.headers["Want-Repr-Digest"]) { headers.append(("Repr-Digest", photo.reprDigest)) }
        return ServerResponse(status: 200, headers: headers, body: photo.bytes)
    }

    /// Whether a `Want-Repr-Digest` value asks for SHA-256: a `sha-256` member with a preference
    /// from 1 to 10 (0 means "not this one").
    static func wantsSHA256(_ field: String?) -> Bool {
        guard let field else { return false }
        for member in field.split(separator: ",") {
            let pair = member.split(separator: "=", maxSplits: 1).map { $0.trimmingOWS() }
            if pair.count == 2, pair[0] == "sha-256", let preference = Int(pair[1]), (1...10).contains(preference) { return true }
        }
        return false
    }
}
