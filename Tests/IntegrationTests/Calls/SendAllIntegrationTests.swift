@testable import BatonSupport
import Baton
import Dispatch
import TestSupport
import XCTest

/// `client.sendAll`: a batch under one bar and one failure handler. It fulfils with the responses
/// in order, knows its total before the first byte, and rejects at the first failure, cancelling
/// the calls running and starting no other.
final class SendAllIntegrationTests: IntegrationTestCase {
    private func photos(_ count: Int, bytes: Int = 1000, fault: (Int) -> String? = { _ in nil }) async throws -> [Request<Photo>] {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "一括", rating: 4)).value
        return (0..<count).map { Photos.upload(Multipart.imageBytes(count: bytes + $0), index: $0, to: review.id, fault: fault($0)) }
    }

    func test_responsesComeInOrder_underOneBarWhoseTotalIsKnownFromItsFirstReport() async throws {
        let uploads = try await photos(3, bytes: 50_000)
        let reported = Locked<[PromiseProgress]>([])
        // Held until the handler is added, so that it sees the first report.
        let release = DispatchSemaphore(value: 0)
        let held = try makeClient { $0.adapters = [GateAdapter(release: release)] }

        let batch = held.sendAll(uploads, concurrency: 2).progress { progress in reported.withLock { $0.append(progress) } }
        for _ in uploads { release.signal() }
        let photos = try await batch.value

        XCTAssertEqual(photos.map(\.filename), ["photo0.jpg", "photo1.jpg", "photo2.jpg"])
        let bar = reported.value
        let total = try XCTUnwrap(bar.first?.total, "the first report knows the total: \(bar)")
        XCTAssertTrue((150_000...151_000).contains(total), "\(total)")
        XCTAssertEqual(bar.first, PromiseProgress(completed: 0, total: total, kind: .bytesSent))
        XCTAssertTrue(bar.allSatisfy { $0.total == total }, "one bar: \(bar)")
        XCTAssertEqual(bar.last, PromiseProgress(completed: total, total: total, kind: .bytesSent))
    }

    func test_theFirstFailure_rejectsTheBatch_cancelsTheCallsRunning_andStartsNoOther() async throws {
        // Photo 0 fails with a 500 (a POST, which the retry policy leaves alone) once photo 1 is
        // held in an adapter; photos 2 to 4 wait their turn.
        let uploads = try await photos(5) { $0 == 0 ? "status=500" : nil }
        let release = DispatchSemaphore(value: 0)
        let releaseFailing = DispatchSemaphore(value: 0)
        let held = expectation(description: "photo 1 is held")
        let tally = CallTally()
        let client = try makeClient { configuration in
            let failing: @Sendable (URLRequest) -> Bool = { $0.value(forHTTPHeaderField: "X-Demo-Fault") != nil }
            configuration.adapters = [
                GateAdapter(release: releaseFailing, holds: failing),
                GateAdapter(release: release, holds: { !failing($0) }, onHold: {
                    held.fulfill()
                    releaseFailing.signal()
                }),
            ]
            configuration.monitors = [tally]
            // The photos carry an Idempotency-Key, which makes a 500 retryable: not here.
            configuration.retryPolicy = nil
        }
        let handled = Locked<[String]>([])
        let failed = expectation(description: "the batch failed")
        let statuses = Locked<[Int?]>([])

        client.sendAll(uploads, concurrency: 2).failure { error, isCancelled in
            handled.withLock { $0.append("\(isCancelled ? "cancelled" : "failed"): \(error)") }
            statuses.withLock { $0.append((error as? APIError)?.statusCode) }
            failed.fulfill()
        }
        await fulfillment(of: [held], timeout: 30)
        // Photo 1 is still held: only the first failure can settle the batch now.
        await fulfillment(of: [failed], timeout: 30)
        for _ in uploads { release.signal() }

        XCTAssertEqual(statuses.value, [500])
        XCTAssertEqual(handled.value.count, 1)
        XCTAssertTrue(handled.value.first?.hasPrefix("failed: POST \(origin)/reviews/") == true, "\(handled.value)")
        await fulfillment(of: [tally.expectEnded(2)], timeout: 30)
        XCTAssertEqual(tally.started.count, 2, "photos 2 to 4 never start")
        XCTAssertEqual(tally.ended.compactMap { ($0.error as? APIError)?.kind }.sorted { "\($0)" < "\($1)" }, [.cancelled, .unacceptableStatus])
        let stats = try await stats()
        XCTAssertEqual(stats.photosStored, 0, "the held photo was cancelled before it went")
    }

    func test_anEmptyBatch_fulfilsAtOnceWithNothing() throws {
        XCTAssertEqual(client.sendAll([Request<Photo>]()).state, .fulfilled)
    }
}
