import Baton

/// 4. A photo whose responses are lost is reported as failed and uploaded again, and the server
/// stores it once: its upload carries an idempotency key, the same at every attempt. The review
/// and the other photo are not rolled back.
let failedPhotoScenario = Scenario(
    name: "retry-photo",
    title: "A photo whose answers are lost, sent again and stored once",
    explanation: "The server stores the second of two photos but cuts its answer three times (X-Demo-Fault), past the retry policy's two retries: its outcome says it failed and carries its endpoint, which is sent again. Every attempt carries the same Idempotency-Key, so the server answers the photo it stored rather than storing it again."
) { session in
    let review = try await session.review()
    let files = try [session.photoFile("ok.jpg", size: 200_000), session.photoFile("flaky.jpg", size: 200_000)]
    let uploads = [
        Photos.upload(files[0], to: review.id),
        Photos.upload(files[1], to: review.id, headers: ["X-Demo-Fault": "drop-after=64;times=3"]),
    ]

    let outcomes = try await session.client.sendEach(uploads).value
    let failed = outcomes.filter { $0.error != nil }
    for outcome in failed { session.say("failed: \(outcome.error!)") }
    try session.expect(failed.count == 1, "one photo to fail")

    let again = try await session.client.sendEach(failed.map(\.endpoint)).value
    try session.expect(again.allSatisfy { $0.error == nil }, "the failed photo to succeed when sent again")
    session.say("sent again: \(again.compactMap(\.value).map(\.url).joined(separator: ", "))")
    let stored = try await session.client.send(Request<Review>(.get, "reviews/\(review.id)")).value.photos
    session.say("the review holds \(stored.count) photos: the one whose answers were lost, once")
    try session.expect(stored.count == 2, "the server to store each photo once")
    session.counted(uploaded: (outcomes + again).compactMap(\.value).map(\.bytes).reduce(0, +))
}
