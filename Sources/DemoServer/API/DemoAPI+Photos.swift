/// Photo upload (`multipart/form-data`) and download.
extension DemoAPI {
    func createPhoto(reviewID: Int, _ exchange: HTTPExchange) throws(Refusal) -> ServerResponse {
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
        let photo = state.withLock { state -> DemoData.Photo? in
            // The review may have gone (a reset) while the body was parsed.
            guard state.data.reviews[reviewID] != nil else { return nil }
            let photo = DemoData.Photo(
                id: state.data.nextPhotoID, reviewID: reviewID, contentType: received.type, filename: received.filename,
                bytes: received.bytes, digest: received.digest, lastModified: DateHeader.seconds()
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

    /// `GET /photos/:id`: the bytes, with the validators and digest that let a client fetch them
    /// in ranges, resume, and check what it put together.
    func photo(_ id: Int) throws(Refusal) -> ServerResponse {
        guard let photo = state.withLock({ $0.data.photos[id] }) else { throw Refusal(404, "not_found") }
        return ServerResponse(status: 200, headers: photo.representationHeaders, body: photo.bytes)
    }
}
