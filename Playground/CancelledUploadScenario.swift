import Baton
import BatonSupport

/// 5. A large upload cancelled halfway: the transfer stops on the wire, and the server keeps
/// nothing of it.
let cancelledUploadScenario = Scenario(
    name: "cancel",
    title: "A slow upload cancelled halfway",
    explanation: "A 40 MB photo is cancelled at the first progress report past half of it (on a busy machine one report can cover many megabytes); the call ends as cancelled and the server stores no part of it."
) { session in
    let review = try await session.review()
    let file = try session.photoFile("large.jpg", size: 40_000_000)
    let storedBefore = try await session.stats().photosStored

    let upload = session.client.send(Photos.upload(file, to: review.id))
    // The report that triggered the cancel is the bar's last: reports already on their way are not drawn.
    let cancelledAt = Locked<PromiseProgress?>(nil)
    upload.progress(everyFraction: 0.05) { progress in
        guard progress.kind == .bytesSent, cancelledAt.value == nil else { return }
        Console.shared.progress("large photo", progress)
        if (progress.fractionCompleted ?? 0) >= 0.5 {
            cancelledAt.withLock { $0 = progress }
            upload.cancel()
        }
    }
    _ = try? await upload.value
    Console.shared.endProgress()

    let storedAfter = try await session.stats().photosStored
    let sent = cancelledAt.value.map { "\(Console.size($0.completed)) sent" } ?? "before half was sent"
    session.say("cancelled with \(sent); the upload ended as \(upload.state); the server stored \(storedAfter - storedBefore) photos")
    try session.expect(upload.state == .cancelled, "the upload to end as cancelled (it ended \(upload.state))")
    try session.expect(storedAfter == storedBefore, "the server to keep nothing of it")
}
