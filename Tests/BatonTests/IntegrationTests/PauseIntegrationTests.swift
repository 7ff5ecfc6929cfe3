import Baton
import Dispatch
import Foundation
import XCTest

/// Pausing and resuming a call reaches its URLSession task: the call still completes with its
/// value once resumed, and a cancel while paused settles it at once.
final class PauseIntegrationTests: IntegrationTestCase {
    func test_pausedThenResumedRequest_completesWithItsValue() async throws {
        let promise = client.send(GetOrder(id: 1))

        promise.pause()
        XCTAssertEqual(promise.state, .paused)
        promise.resume()

        let order = try await promise.value
        XCTAssertEqual(order.id, 1)
        XCTAssertEqual(promise.state, .fulfilled)
    }

    func test_pausedThenResumedUpload_storesThePhoto() async throws {
        let image = LiveMultipart.imageBytes(count: 256 << 10)
        let review = try await client.send(Reviews.post(facilityID: 1, content: "一時停止", rating: 4)).value
        var form = Multipart()
        form.addFile(image)
        let upload = client.send(Photos.upload(reviewID: review.id, form))

        upload.pause()
        upload.resume()

        let photo = try await upload.value
        XCTAssertEqual(photo.bytes, image.count)
        XCTAssertEqual(photo.sha256, LiveAPI.sha256Hex(image))
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
        let promise = client.send(GetOrder(id: 1, fault: "delay=2s"))
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
}
