import BatonLocking
import Baton
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// outcome reported, the failed ones sent again later.
final class ReviewPhotosIntegrationTests: IntegrationTestCase {
    /// A photo upload to review `reviewID`: `bytes` as `photo<index>.jpg`, with `fault` if given.
    private static func photo(_ bytes: Data, index: Int, to reviewID: Int, fault: String? = nil) -> Request<Photo> {
        var form = MultipartForm()
        form.append(bytes, name: "photo", filename: "photo\(index).jpg", contentType: "image/jpeg")
        return Request(.post, "reviews/\(reviewID)/photos", headers: fault.map { ["X-Demo-Fault": $0] } ?? [:], body: .multipart(form))
    }

    func test_aFailedPhoto_leavesTheReviewAndTheOthers_andSucceedsWhenSentAgain() async throws {
        let images = (0..<3).map { Multipart.imageBytes(count: 100_000 + $0) }
        let reported = Locked<[PromiseProgress]>([])

        let client = self.client!
        let outcomes = try await client.send(Reviews.post(facilityID: 1, content: "写真三枚", rating: 5))
            .success { review in
                client.sendEach(images.enumerated().map { index, bytes in
                    Self.photo(bytes, index: index, to: review.id, fault: index == 1 ? "status=500;times=1" : nil)
                })
            }
            .progress { progress in reported.withLock { $0.append(progress) } }
            .value

        XCTAssertEqual(outcomes.map { $0.value?.sha256 }, [Fixtures.sha256Hex(images[0]), nil, Fixtures.sha256Hex(images[2])])
        XCTAssertEqual((outcomes[1].error as? APIError)?.statusCode, 500)
        let stored = try await stats().photosStored
        XCTAssertEqual(stored, 2)
        let review = try await client.send(Reviews.get(id: 1)).value
        XCTAssertEqual(review.photos.count, 2)
        // One bar for the batch (after the review's own few bytes): bytes sent, the three bodies'
        // total known from its first report.
        let batch = reported.value.filter { ($0.total ?? 0) > 300_000 }
        XCTAssertEqual(Set(batch.compactMap(\.total)).count, 1, "\(reported.value)")
        XCTAssertTrue(batch.allSatisfy { $0.kind == .bytesSent }, "\(reported.value)")

        let again = try await client.sendEach(outcomes.filter { $0.error != nil }.map(\.endpoint)).value

        XCTAssertEqual(again.map { $0.value?.sha256 }, [Fixtures.sha256Hex(images[1])])
        let after = try await stats().photosStored
        XCTAssertEqual(after, 3)
    }

    func test_atMostThreeRunAtOnce() async throws {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "多い", rating: 4)).value
        let release = DispatchSemaphore(value: 0)
        // Each upload held in its adapter, so the batch's concurrency shows in how many started.
        let started = Counter()
        let threeStarted = expectation(description: "three uploads reached the adapter")
        let held = try makeClient {
            $0.adapters = [CountingHeldAdapter(started: started, release: release) { count in
                if count == 3 { threeStarted.fulfill() }
            }]
        }
        let batch = held.sendEach((0..<7).map { Self.photo(Multipart.imageBytes(count: 1000), index: $0, to: review.id) })

        await fulfillment(of: [threeStarted], timeout: 30)
        // None of the three can end while held, so a fourth start would break the limit.
        XCTAssertEqual(started.value, 3)
        for _ in 0..<7 { release.signal() }
        let outcomes = try await batch.value

        XCTAssertEqual(outcomes.filter { $0.value != nil }.count, 7)
        XCTAssertEqual(started.value, 7)
    }

    func test_theBatchsFirstProgress_isZeroOfItsTotal_beforeAnyByteIsSent() async throws {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "最初", rating: 4)).value
        let photos = (0..<3).map { Self.photo(Multipart.imageBytes(count: 50_000), index: $0, to: review.id) }
        let reported = Locked<[PromiseProgress]>([])
        // Held until the handler is added: progress is a latest-value stream, and a handler added
        // after bytes went would see those first.
        let release = DispatchSemaphore(value: 0)
        let held = try makeClient { $0.adapters = [HeldAdapter(release: release)] }

        let batch = held.sendEach(photos).progress { progress in reported.withLock { $0.append(progress) } }
        for _ in photos { release.signal() }
        let outcomes = try await batch.value

        XCTAssertEqual(outcomes.compactMap(\.value).count, 3)
        // The three bodies: their bytes and each part's few header lines.
        let total = try XCTUnwrap(reported.value.last?.total)
        XCTAssertTrue((150_000...151_000).contains(total), "\(total)")
        XCTAssertEqual(reported.value.first, PromiseProgress(completed: 0, total: total, kind: .bytesSent))
        XCTAssertEqual(reported.value.last, PromiseProgress(completed: total, total: total, kind: .bytesSent))
        XCTAssertEqual(outcomes[0].description, "succeeded: \(outcomes[0].value!)")
    }

    /// The three uploads (sent at once) reach the server, which holds their answers 300 s: the
    /// cancel lands while every one is in progress, however slow the machine. The server logs each
    /// as abandoned once it sees its client hang up, the moment after which it can store nothing.
    func test_cancellingTheChainDuringUploads_stopsEveryTransfer_andStoresNoPhoto() async throws {
        let images = (0..<3).map { _ in Multipart.imageBytes(count: 8_000_000) }

        let client = self.client!
        let chain = client.send(Reviews.post(facilityID: 1, content: "取り消し", rating: 3))
            .success { review in
                client.sendEach(images.enumerated().map { Self.photo($1, index: $0, to: review.id, fault: "delay=300s") })
            }
        try await waitUntilServerCounts(3, for: "POST /reviews/:review_id/photos")
        let abandoned = serverLog.expectLines(containing: "abandoned", count: 3)
        chain.cancel()

        XCTAssertEqual(chain.state, .cancelled)
        await fulfillment(of: [abandoned], timeout: 30)
        let stored = try await stats().photosStored
        XCTAssertEqual(stored, 0)
        let review = try await client.send(Reviews.get(id: 1)).value
        XCTAssertEqual(review.photos, [])
    }
}

/// Counts the attempts that reach it (telling `onStart` each new count), then holds each until
/// `release` is signalled.
struct CountingHeldAdapter: RequestAdapter {
    let started: Counter
    let release: DispatchSemaphore
    var onStart: @Sendable (Int) -> Void = { _ in }

    func adapt(_ request: URLRequest, context: AttemptContext) async throws -> URLRequest {
        onStart(started.increment())
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                release.wait()
                continuation.resume()
            }
        }
        return request
    }
}
