@testable import BatonClient
@testable import BatonUploads
import Foundation
import TestSupport
import XCTest

/// `Idempotency-Key` against DemoServer, which honours it: photos whose responses were cut and that
/// were sent again are stored once, a review answered `503` once is retried and stored once, and
/// a key reused for another request is refused.
final class IdempotencyIntegrationTests: IntegrationTestCase {
    private func newReview() async throws -> Review {
        try await client.send(Reviews.post(facilityID: 1, content: "一度だけ", rating: 5)).value
    }

    func test_photoUploadsWhoseAnswersAreCut_andRetried_leaveExactlyOnePhotoEach() async throws {
        let review = try await newReview()
        let before = try await stats()
        // Each upload's response is cut once, after the server stored the photo (`n` tells the
        // faults apart, so that each applies once).
        let uploads = (0..<5).map { index in
            Photos.upload(Multipart.imageBytes(count: 30_000 + index), index: index, to: review.id, fault: "drop-after=120;times=1;n=\(index)")
        }

        let outcomes = try await client.sendEach(uploads).value

        XCTAssertEqual(outcomes.compactMap(\.error).count, 0, "\(outcomes)")
        let after = try await stats()
        XCTAssertEqual(after.photosStored - before.photosStored, 5)
        XCTAssertEqual(after.idempotentReplays - before.idempotentReplays, 5)
        let stored = try await client.send(Reviews.get(id: review.id)).value
        XCTAssertEqual(stored.photos.count, 5)
    }

    func test_photoUploadsThatFailed_andAreSentAgain_leaveExactlyOnePhotoEach() async throws {
        let review = try await newReview()
        let client = try makeClient { $0.retryPolicy = nil }
        let uploads = (0..<3).map { index in
            Photos.upload(Multipart.imageBytes(count: 20_000 + index), index: index, to: review.id, fault: "drop-after=120;times=1;again=\(index)")
        }
        let first = try await client.sendEach(uploads).value
        XCTAssertEqual(first.compactMap(\.error).count, 3, "every answer was cut")

        let again = try await client.sendEach(first.filter { $0.error != nil }.map(\.endpoint)).value

        XCTAssertEqual(again.compactMap(\.error).count, 0, "\(again)")
        let stored = try await client.send(Reviews.get(id: review.id)).value
        XCTAssertEqual(stored.photos.count, 3)
        XCTAssertEqual(Set(again.compactMap(\.value?.id)).count, 3, "each answered with its first answer's photo")
    }

    func test_aReviewAnswered503Once_isRetried_andStoredOnce() async throws {
        var post = Reviews.post(facilityID: 2, content: "再送", rating: 4, headers: ["X-Demo-Fault": "status=503;times=1"])
        post.idempotencyKey = IdempotencyKey.make()

        let review = try await client.send(post).value

        let posts = try await requestCount("POST /facilities/:facility_id/reviews")
        XCTAssertEqual(posts, 2, "the 503, then the retry")
        let next = try await newReview()
        XCTAssertEqual(next.id, review.id + 1, "no other review was stored")
    }

    func test_aReviewWithoutAKey_answered503_isNotRetried() async throws {
        let error = await apiError(client.send(Reviews.post(facilityID: 2, content: "一回", rating: 4, headers: ["X-Demo-Fault": "status=503;times=1"])))

        XCTAssertEqual(error?.statusCode, 503)
        let posts = try await requestCount("POST /facilities/:facility_id/reviews")
        XCTAssertEqual(posts, 1)
    }

    func test_aKeyReusedWithAnotherBody_isRefusedWith422() async throws {
        let key = IdempotencyKey.make()
        var first = Reviews.post(facilityID: 1, content: "最初", rating: 5)
        first.idempotencyKey = key
        var other = Reviews.post(facilityID: 1, content: "別の内容", rating: 1)
        other.idempotencyKey = key
        _ = try await client.send(first).value

        let error = await apiError(client.send(other))

        XCTAssertEqual(error?.statusCode, 422)
    }

    func test_theUploadQueue_sendsItsRecordedKey_soACutAnswerIsNotStoredTwice() async throws {
        let review = try await newReview()
        let folder = FileManager.default.temporaryDirectory.appending(path: "baton-queue-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let client = try makeClient { $0.retryPolicy = nil }
        let queue = UploadQueue(folder: folder, client: client)
        var form = MultipartForm()
        form.append(Multipart.imageBytes(count: 10_000), name: "photo", filename: "q.jpg", contentType: "image/jpeg")
        try queue.add(form, to: "reviews/\(review.id)/photos", headers: ["X-Demo-Fault": "drop-after=120;times=1"])

        let first = try await queue.send().value
        XCTAssertNotNil(first.first?.error)
        // A new queue, as after a restart, sends the same record with the same key.
        let second = try await UploadQueue(folder: folder, client: client).send().value

        XCTAssertNil(second.first?.error)
        let stored = try await client.send(Reviews.get(id: review.id)).value
        XCTAssertEqual(stored.photos.count, 1)
    }
}
