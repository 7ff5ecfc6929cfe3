@testable import BatonSupport
@testable import BatonPromise
@testable import BatonClient
import Dispatch
import Foundation
import TestSupport
import XCTest

/// Progress of real transfers, in bytes: a 1 MiB photo uploaded as multipart and downloaded back.
final class ProgressIntegrationTests: IntegrationTestCase {
    private static let imageSize = 1 << 20
    private let image = Multipart.imageBytes(count: ProgressIntegrationTests.imageSize)

    /// The multipart body of `image` as `photo.jpg`, with a caption.
    private var form: Multipart {
        var form = Multipart()
        form.addText(name: "caption", "夜景")
        form.addFile(image)
        return form
    }

    /// Posts a review and uploads `image` to it; returns the photo. With `progress`, the upload is
    /// held until the handler is added, so that it sees every report from the first.
    private func uploadImage(progress: (@Sendable (PromiseProgress) -> Void)? = nil) async throws -> Photo {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "写真付き", rating: 5)).value
        guard let progress else { return try await client.send(Photos.upload(reviewID: review.id, form)).value }
        let release = DispatchSemaphore(value: 0)
        let upload = try makeClient { $0.adapters = [HeldAdapter(release: release)] }
            .send(Photos.upload(reviewID: review.id, form))
            .progress(progress)
        release.signal()
        return try await upload.value
    }

    /// Whether `values` never go down.
    private func isNonDecreasing(_ values: [Int64]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }
    }

    func test_uploadedPhoto_arrivesByteForByte() async throws {
        let photo = try await uploadImage()

        XCTAssertEqual(photo, Photo(id: 1, reviewID: 1, url: "/photos/1", filename: "photo.jpg", bytes: Self.imageSize, sha256: Fixtures.sha256Hex(image)))
    }

    /// With 8 MiB, more than a loopback socket's buffers take in one write: a body of 1 MiB may
    /// go in one piece on a busy machine, and be reported once.
    func test_upload_reportsBytesSentUpToTheBodysLength() async throws {
        var form = Multipart()
        form.addFile(Multipart.imageBytes(count: 8 << 20))
        let bodyLength = Int64(form.body.count)
        let reported = Locked<[PromiseProgress]>([])

        let review = try await client.send(Reviews.post(facilityID: 1, content: "大きい", rating: 5)).value
        // Held until the handler is added, so that it sees every report from the first.
        let release = DispatchSemaphore(value: 0)
        let upload = try makeClient { $0.adapters = [HeldAdapter(release: release)] }.send(Photos.upload(reviewID: review.id, form))
            .progress { progress in reported.withLock { $0.append(progress) } }
        release.signal()
        _ = try await upload.value

        let sending = reported.value.filter { $0.total == bodyLength }
        XCTAssertGreaterThan(sending.count, 1, "\(reported.value)")
        XCTAssertTrue(isNonDecreasing(sending.map(\.completed)), "\(sending)")
        XCTAssertEqual(sending.last, PromiseProgress(completed: bodyLength, total: bodyLength, kind: .bytesSent))
    }

    /// Bytes sent, every one of them, and only then bytes received, ending with the whole response.
    func test_upload_reportsTheBodySent_thenTheResponsesBytes() async throws {
        let bodyLength = Int64(form.body.count)
        let reported = Locked<[PromiseProgress]>([])

        _ = try await uploadImage { progress in reported.withLock { $0.append(progress) } }

        let answer = #"{"id":1,"review_id":1,"url":"/photos/1","filename":"photo.jpg","bytes":1048576,"sha256":"\#(Fixtures.sha256Hex(image))"}"#
        let responseLength = Int64(answer.utf8.count)
        let all = reported.value
        let lastSent = all.lastIndex { $0.total == bodyLength }
        let firstReceived = all.firstIndex { $0.total == responseLength }
        XCTAssertEqual(lastSent.map { all[$0] }, PromiseProgress(completed: bodyLength, total: bodyLength, kind: .bytesSent), "\(all.suffix(5))")
        XCTAssertLessThan(try XCTUnwrap(lastSent), try XCTUnwrap(firstReceived), "\(all.suffix(5))")
        XCTAssertEqual(all.last, PromiseProgress(completed: responseLength, total: responseLength, kind: .bytesReceived), "\(all.suffix(5))")
    }

    /// How many reports a fast transfer makes depends on the machine (reports made before a
    /// handler listens are folded into the latest): that they come while bytes arrive is shown by
    /// a stalled transfer, below.
    func test_download_reportsNonDecreasingBytesEndingAtTheTotal() async throws {
        let photo = try await uploadImage()
        let reported = Locked<[PromiseProgress]>([])
        let release = DispatchSemaphore(value: 0)

        let download = try makeClient { $0.adapters = [HeldAdapter(release: release)] }.send(Photos.download(id: photo.id))
            .progress { progress in reported.withLock { $0.append(progress) } }
        release.signal()
        let bytes = try await download.value

        let total = Int64(Self.imageSize)
        XCTAssertEqual(bytes, image)
        XCTAssertTrue(isNonDecreasing(reported.value.map(\.completed)), "\(reported.value)")
        XCTAssertEqual(reported.value.last, PromiseProgress(completed: total, total: total, kind: .bytesReceived))
    }

    /// The server sends the first mebibyte of its response and then nothing until the client hangs
    /// up (`stall-after`): bytes received are reported before the response is whole, however the
    /// machine schedules the threads.
    func test_download_reportsTheBytesAsTheyArrive() async throws {
        let total: Int64 = 4 << 20
        let arriving = expectation(description: "a report of some of the bytes")
        arriving.assertForOverFulfill = false
        var stalled = Request<Data>(.get, "health", headers: ["X-Demo-Fault": "body-bytes=\(total);stall-after=\(1 << 20)"])
        stalled.tracksDownloadProgress = true

        let download = client.send(stalled).progress { progress in
            if progress.kind == .bytesReceived, progress.total == total, progress.completed > 0, progress.completed < total {
                arriving.fulfill()
            }
        }
        await fulfillment(of: [arriving], timeout: 30)
        download.cancel()
        XCTAssertEqual(download.state, .cancelled)
    }

    func test_downloadNotTracked_reportsTheBytesOnceWhenComplete() async throws {
        let photo = try await uploadImage()
        let reported = Locked<[PromiseProgress]>([])
        // Watched before the request can start, so that its one report cannot come first.
        let release = DispatchSemaphore(value: 0)
        let heldClient = try makeClient { $0.adapters = [HeldAdapter(release: release)] }

        let download = heldClient.send(Photos.download(id: photo.id, tracksProgress: false))
            .progress { progress in reported.withLock { $0.append(progress) } }
        release.signal()
        let bytes = try await download.value

        let total = Int64(Self.imageSize)
        XCTAssertEqual(bytes, image)
        XCTAssertEqual(reported.value, [PromiseProgress(completed: total, total: total, kind: .bytesReceived)])
    }

    func test_retriedDownload_restartsItsProgressAtZero() async throws {
        let photo = try await uploadImage()
        let reported = Locked<[PromiseProgress]>([])
        // Held until the handler is added: a handler added after the first attempt ended would see
        // only the newest report (progress is a latest-value stream).
        let release = DispatchSemaphore(value: 0)
        let heldClient = try makeClient { $0.adapters = [HeldAdapter(release: release)] }

        let download = heldClient.send(Photos.download(id: photo.id, headers: ["X-Demo-Fault": "status=503;times=1"]))
            .progress { progress in reported.withLock { $0.append(progress) } }
        release.signal()
        release.signal()
        let bytes = try await download.value

        let values = reported.value
        // The first attempt received the 503's {"message":"injected"}, 22 bytes.
        let firstAttemptEnd = try XCTUnwrap(values.firstIndex(of: PromiseProgress(completed: 22, total: 22, kind: .bytesReceived)), "\(values)")
        let restart = try XCTUnwrap(values[firstAttemptEnd...].firstIndex { $0.completed == 0 }, "\(values)")
        let total = Int64(Self.imageSize)
        XCTAssertTrue(isNonDecreasing(values[restart...].map(\.completed)), "\(values)")
        XCTAssertEqual(values.last, PromiseProgress(completed: total, total: total, kind: .bytesReceived), "\(values)")
        XCTAssertEqual(bytes, image)
    }
}
