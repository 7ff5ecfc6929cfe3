@testable import BatonSupport
@testable import BatonPromise
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// A review posted, then its photos sent as one batch in the same chain: each photo's outcome
/// reported, the failed ones sent again later, and a cancel of the chain reaching every upload.
final class ReviewPhotosIntegrationTests: IntegrationTestCase {
    func test_aFailedPhoto_leavesTheReviewAndTheOthers_andSucceedsWhenSentAgain() async throws {
        let images = (0..<3).map { Multipart.imageBytes(count: 100_000 + $0) }
        let reported = Locked<[PromiseProgress]>([])

        let client = self.client!
        let outcomes = try await client.send(Reviews.post(facilityID: 1, content: "写真三枚", rating: 5))
            .success { review in
                client.sendEach(images.enumerated().map { index, bytes in
                    Photos.upload(bytes, index: index, to: review.id, fault: index == 1 ? "status=400;times=1" : nil)
                })
            }
            .progress { progress in reported.withLock { $0.append(progress) } }
            .value

        XCTAssertEqual(outcomes.map { $0.value?.sha256 }, [Fixtures.sha256Hex(images[0]), nil, Fixtures.sha256Hex(images[2])])
        XCTAssertEqual((outcomes[1].error as? APIError)?.statusCode, 400)
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

    /// The three uploads (sent at once) reach the server, which holds their responses 300 s: the
    /// cancel lands while every one is in progress, however slow the machine. Each call must end
    /// cancelled, and the server logs each upload as abandoned once it sees its client hang up,
    /// the moment after which it can store nothing.
    func test_cancellingTheChainDuringUploads_cancelsEveryRunningUpload_andStoresNoPhoto() async throws {
        let images = (0..<3).map { _ in Multipart.imageBytes(count: 8_000_000) }
        let tally = CallTally()
        let client = try makeClient { $0.monitors = [tally] }

        let chain = client.send(Reviews.post(facilityID: 1, content: "取り消し", rating: 3))
            .success { review in
                client.sendEach(images.enumerated().map { Photos.upload($1, index: $0, to: review.id, fault: "delay=300s") })
            }
        try await waitUntilServerCounts(3, for: "POST /reviews/:review_id/photos")
        let abandoned = serverLog.expectLines(containing: "abandoned", count: 3)
        chain.cancel()

        // Every call ends: the review's, and the three uploads, each cancelled.
        await fulfillment(of: [tally.expectEnded(4)], timeout: 30)
        let uploads = tally.ended.filter { $0.request.path.hasSuffix("/photos") }
        XCTAssertEqual(uploads.map { ($0.error as? APIError)?.kind }, [.cancelled, .cancelled, .cancelled], "\(tally.ended)")
        XCTAssertEqual(tally.started.count, 4)
        await fulfillment(of: [abandoned], timeout: 30)
        let stored = try await stats().photosStored
        XCTAssertEqual(stored, 0)
        let review = try await client.send(Reviews.get(id: 1)).value
        XCTAssertEqual(review.photos, [])
    }
}
