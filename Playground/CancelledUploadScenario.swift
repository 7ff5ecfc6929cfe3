import Baton

/// 5. A large upload cancelled halfway: the transfer stops on the wire, and the server keeps
/// nothing of it.
let cancelledUploadScenario = Scenario(
    name: "cancel",
    title: "A slow upload cancelled halfway",
    explanation: "A 40 MB photo is cancelled once half of it is sent; the call ends as cancelled and the server stores no part of it."
) { session in
    let review = try await session.review()
    let file = try session.photoFile("large.jpg", size: 40_000_000)
    let storedBefore = try await session.stats().photosStored

    let upload = session.client.send(Photos.upload(file, to: review.id))
    upload.progress { progress in
        Console.shared.progress("large photo", progress)
        if progress.kind == .bytesSent, (progress.fractionCompleted ?? 0) >= 0.5 { upload.cancel() }
    }
    _ = try? await upload.value
    Console.shared.endProgress()

    let storedAfter = try await session.stats().photosStored
    session.say("the upload ended as \(upload.state); the server stored \(storedAfter - storedBefore) photos")
    try session.expect(upload.state == .cancelled, "the upload to end as cancelled (it ended \(upload.state))")
    try session.expect(storedAfter == storedBefore, "the server to keep nothing of it")
}
