import Baton

/// 4. A photo whose upload fails is reported, and uploaded again; the review and the other
/// photos are not rolled back.
let failedPhotoScenario = Scenario(
    name: "retry-photo",
    title: "A photo upload that fails, then succeeds when sent again",
    explanation: "The server fails the second of two photos once (X-Demo-Fault); its outcome says so and carries its endpoint, which is sent again."
) { session in
    let review = try await session.review()
    let files = try [session.photoFile("ok.jpg", size: 200_000), session.photoFile("flaky.jpg", size: 200_000)]
    let uploads = [
        Photos.upload(files[0], to: review.id),
        Photos.upload(files[1], to: review.id, headers: ["X-Demo-Fault": "status=500;times=1"]),
    ]

    let outcomes = try await session.client.sendEach(uploads).value
    let failed = outcomes.filter { $0.error != nil }
    for outcome in failed { session.say("failed: \(outcome.error!)") }
    try session.expect(failed.count == 1, "one photo to fail")

    let again = try await session.client.sendEach(failed.map(\.endpoint)).value
    try session.expect(again.allSatisfy { $0.error == nil }, "the failed photo to succeed when sent again")
    session.say("sent again: \(again.compactMap(\.value).map(\.url).joined(separator: ", "))")
    session.counted(uploaded: (outcomes + again).compactMap(\.value).map(\.bytes).reduce(0, +))
}
