import Baton

/// 2. The source documents' job as one chain: find orders, post a review, upload three photos in
/// parallel with one progress bar for the batch, and one failure handler for the whole chain.
let reviewWithPhotosScenario = Scenario(
    name: "review",
    title: "Find orders, post a review, upload three photos",
    explanation: "One chain: each step gets the previous step's value; the photos go three at a time with one bar for all their bytes; one failure handler covers every step."
) { session in
    try await session.ensureLoggedIn()
    let client = session.client
    let files = try [300_000, 500_000, 700_000].enumerated().map { index, size in try session.photoFile("photo\(index).jpg", size: size) }

    // Steps of several statements infer their types here: what follows each is another such
    // step, a handler, or `.value` (see the article "Chains and the promise").
    let photos = try await client.send(FindOrders(name: "山田"))
        .success { orders in
            session.say("found \(orders.count) orders; reviewing order \(orders[0].id) of \(orders[0].name)")
            return client.send(Reviews.post(facilityID: 1, content: "とても良い", rating: 5))
        }
        .success { review in
            session.say("posted review \(review.id); uploading \(files.count) photos")
            // One bar for the batch, its total known from the start, redrawn at most ten times a
            // second; the first photo to fail would fail the chain.
            return client.sendAll(files.map { Photos.upload($0, to: review.id) })
                .progress(every: .milliseconds(100)) { Console.shared.progress("photos", $0) }   // this step's bytes only
        }
        .failure { error, isCancelled in
            Console.shared.endProgress()
            session.say("the chain failed\(isCancelled ? " (cancelled)" : ""): \(error)")
        }
        .value
    Console.shared.endProgress()

    // Photos come in the order of the files; the server numbered them as they arrived.
    for (file, photo) in zip(files, photos) {
        session.say("\(file.lastPathComponent) → \(photo.url), \(Console.size(Int64(photo.bytes)))")
    }
    try session.expect(photos.count == files.count, "every photo stored")
    session.counted(uploaded: photos.map(\.bytes).reduce(0, +))
    if let first = photos.first { session.remember(photoURL: first.url) }
}
