@testable import BatonSupport
@testable import BatonPromise
@testable import BatonClient
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// Pausing and resuming a call over a real socket: the call completes with its value once
/// resumed, quick pauses and resumes on many threads neither crash nor hang it, and a cancel
/// while paused settles it at once. On Apple platforms the task is suspended; on Linux it is
/// not (URLSession there crashed on exactly these quick pause-resume pairs when it was), and
/// the promise holds progress back instead, which the last test shows.
final class PauseIntegrationTests: IntegrationTestCase {
    func test_pausedThenResumedRequest_completesWithItsValue() async throws {
        // The server holds the response at a barrier of two until the test sends the second
        // request, so the call cannot settle before it is paused (a fulfil settles a paused call).
        let hold = "barrier=2"
        let promise = client.send(GetOrder(id: 1, fault: hold))

        promise.pause()
        XCTAssertEqual(promise.state, .paused)
        promise.resume()
        _ = try await client.send(Demo.echo(headers: ["X-Demo-Fault": hold])).value

        let order = try await promise.value
        XCTAssertEqual(order.id, 1)
        XCTAssertEqual(promise.state, .fulfilled)
    }

    func test_pausedThenResumedUpload_storesThePhoto() async throws {
        let image = Multipart.imageBytes(count: 256 << 10)
        let review = try await client.send(Reviews.post(facilityID: 1, content: "一時停止", rating: 4)).value
        var form = Multipart()
        form.addFile(image)
        let upload = client.send(Photos.upload(reviewID: review.id, form))

        upload.pause()
        upload.resume()

        let photo = try await upload.value
        XCTAssertEqual(photo.bytes, image.count)
        XCTAssertEqual(photo.sha256, Fixtures.sha256Hex(image))
    }

    /// Eight threads pause and resume the same call at once, then one last resume: whatever
    /// order they reached the task in, it must end up running, and nothing may deadlock.
    func test_pausesAndResumesRacingOnManyThreads_endRunningAfterALastResume() async throws {
        let promise = client.send(GetOrder(id: 2, fault: "delay=200ms"))

        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 {
                promise.pause()
                promise.resume()
            }
        }
        promise.resume()

        let order = try await promise.value
        XCTAssertEqual(order.id, 2)
    }

    func test_cancellingAPausedRequest_settlesAsCancelled() async throws {
        // Held far longer than the test: the response cannot settle the call before the cancel.
        let promise = client.send(GetOrder(id: 1, fault: "delay=300s"))
        promise.pause()

        promise.cancel()

        XCTAssertEqual(promise.state, .cancelled)
        do {
            _ = try await promise.value
            XCTFail("a cancelled call fulfilled")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(type(of: error)): \(error)")
        }
    }

    #if canImport(FoundationNetworking)
    /// `client` over `URLSessionTransport`: the two tests below are about URLSession on Linux,
    /// where a transfer cannot be suspended. (HTTP1Transport stops reading while paused.)
    private func overURLSession(_ client: Client) throws -> Client {
        try Client(configuration: client.configuration, transport: urlSessionTransport())
    }

    /// Linux, over URLSessionTransport: paused, and watched, before its request could start, a tracked download still
    /// runs but delivers no progress; when it settles, the newest progress (all the bytes) is
    /// handed over once, then the value. (On Apple platforms the suspended download would wait
    /// for a resume.)
    func test_pausedDownload_holdsProgressBackUntilItSettles() async throws {
        let image = Multipart.imageBytes(count: 512 << 10)
        let review = try await client.send(Reviews.post(facilityID: 1, content: "保留", rating: 3)).value
        var form = Multipart()
        form.addFile(image)
        let photo = try await client.send(Photos.upload(reviewID: review.id, form)).value
        let release = DispatchSemaphore(value: 0)
        let heldClient = try overURLSession(makeClient { $0.adapters = [HeldAdapter(release: release)] })
        let reported = Locked<[PromiseProgress]>([])

        let download = heldClient.send(Photos.download(id: photo.id))
        download.pause()
        download.progress { progress in reported.withLock { $0.append(progress) } }
        release.signal()
        let bytes = try await download.value

        let total = Int64(image.count)
        XCTAssertEqual(bytes, image)
        XCTAssertEqual(reported.value, [PromiseProgress(completed: total, total: total, kind: .bytesReceived)])
    }

    /// Linux, over URLSessionTransport: an upload paused before it starts still goes out (the transfer is not suspended),
    /// but while it is paused its handler gets no progress, even once the server has every byte;
    /// on resume the handler gets the newest progress, once, and the call completes.
    func test_pausedUpload_deliversNoProgressWhilePaused_thenTheNewestOnResume() async throws {
        let image = Multipart.imageBytes(count: 256 << 10)
        let review = try await client.send(Reviews.post(facilityID: 1, content: "一時停止中", rating: 4)).value
        var form = Multipart()
        form.addFile(image)
        let release = DispatchSemaphore(value: 0)
        let heldClient = try overURLSession(makeClient { $0.adapters = [HeldAdapter(release: release)] })
        let reported = Locked<[PromiseProgress]>([])
        // The server holds the response at a barrier of two until the test sends the second
        // request: the checks below run while it is held, however long they take.
        let hold = ["X-Demo-Fault": "barrier=2"]
        let upload = heldClient.send(Request<Photo>(.post, "reviews/\(review.id)/photos", headers: hold,
                                                    body: .data(form.body, contentType: form.contentType)))
        upload.pause()
        upload.progress { progress in reported.withLock { $0.append(progress) } }
        release.signal()

        // The server counts the request once it has read the whole body, then holds its response.
        try await waitUntilServerCounts(1, for: "POST /reviews/:review_id/photos")
        XCTAssertEqual(reported.value, [], "progress was delivered while paused")
        XCTAssertEqual(upload.state, .paused)

        upload.resume()
        XCTAssertLessThanOrEqual(reported.value.count, 1, "only the newest progress is handed over on resume: \(reported.value)")
        _ = try await client.send(Demo.echo(headers: hold)).value
        let photo = try await upload.value
        XCTAssertEqual(photo.bytes, image.count)
    }

    #endif
}
