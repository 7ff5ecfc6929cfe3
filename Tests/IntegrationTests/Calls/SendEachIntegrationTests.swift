@testable import BatonSupport
@testable import BatonPromise
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `Client.sendEach` against DemoServer: at most `concurrency` calls at once, outcomes in the order
/// given whichever ends first, a cancel that reaches the running calls and starts no other, and
/// one bar of progress that never goes back.
final class SendEachIntegrationTests: IntegrationTestCase {
    /// `count` photo uploads to a new review.
    private func photos(_ count: Int, bytes: Int = 1000, fault: (Int) -> String? = { _ in nil }) async throws -> [Request<Photo>] {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "一括", rating: 4)).value
        return (0..<count).map { Photos.upload(Multipart.imageBytes(count: bytes + $0), index: $0, to: review.id, fault: fault($0)) }
    }

    /// Sends `count` photos `concurrency` at a time, each held in an adapter until released, one
    /// release at a time, each once the call before has ended: returns the most calls that ran at
    /// once, counted from each call's start to its outcome.
    private func mostRunningAtOnce(sending count: Int, concurrency: Int) async throws -> Int {
        let uploads = try await photos(count)
        let release = DispatchSemaphore(value: 0)
        let tally = CallTally()
        let held = try makeClient { configuration in
            configuration.adapters = [GateAdapter(release: release)]
            configuration.monitors = [tally]
        }

        let batch = held.sendEach(uploads, concurrency: concurrency)
        for ended in 1...count {
            release.signal()
            await fulfillment(of: [tally.expectEnded(ended)], timeout: 30)
        }
        let outcomes = try await batch.value

        XCTAssertEqual(outcomes.compactMap(\.value).count, count)
        XCTAssertEqual(tally.started.count, count)
        return tally.mostRunning
    }

    func test_atMostThreeCallsRunAtOnce_byDefault() async throws {
        let most = try await mostRunningAtOnce(sending: 7, concurrency: 3)
        XCTAssertEqual(most, 3)
    }

    func test_aConcurrencyOfOne_runsOneCallAtATime() async throws {
        let most = try await mostRunningAtOnce(sending: 4, concurrency: 1)
        XCTAssertEqual(most, 1)
    }

    func test_outcomesComeInTheOrderGiven_whenTheFirstCallEndsLast() async throws {
        // Two at a time: orders 2 and 3 end (each start of the next shows the one before was
        // recorded), and order 4's start releases order 1, held until then.
        let releaseFirst = DispatchSemaphore(value: 0)
        let tally = CallTally { event in
            if event.kind == .started, event.request.url?.path == "/orders/4" { releaseFirst.signal() }
        }
        let client = try makeClient { configuration in
            configuration.adapters = [GateAdapter(release: releaseFirst, holds: { $0.url?.path == "/orders/1" })]
            configuration.monitors = [tally]
        }

        let outcomes = try await client.sendEach((1...4).map { GetOrder(id: $0) }, concurrency: 2).value

        XCTAssertEqual(outcomes.map { $0.value?.id }, [1, 2, 3, 4])
        XCTAssertEqual(outcomes.map(\.endpoint.id), [1, 2, 3, 4])
        XCTAssertEqual(tally.ended.prefix(2).map { $0.request.url?.path }, ["/orders/2", "/orders/3"], "the first call ended after these")
    }

    func test_cancellingTheBatch_cancelsTheCallsItRuns_andNeitherSendsThemNorStartsAnother() async throws {
        let uploads = try await photos(5)
        let release = DispatchSemaphore(value: 0)
        let held = expectation(description: "the two running calls are held")
        held.expectedFulfillmentCount = 2
        let tally = CallTally()
        let client = try makeClient { configuration in
            configuration.adapters = [GateAdapter(release: release, onHold: { held.fulfill() })]
            configuration.monitors = [tally]
        }
        let batch = client.sendEach(uploads, concurrency: 2)
        await fulfillment(of: [held], timeout: 30)

        batch.cancel()
        // A cancel settles the calls it reaches on this thread, before it returns.
        XCTAssertEqual(tally.ended.map { ($0.error as? APIError)?.kind }, [.cancelled, .cancelled])
        XCTAssertEqual(tally.started.count, 2, "the three calls waiting never start")

        // Released, the calls would now upload if the cancel had not reached them: wait until
        // every call started has ended, then count.
        for _ in uploads { release.signal() }
        await fulfillment(of: [tally.expectEnded(tally.started.count)], timeout: 30)
        XCTAssertEqual(tally.ended.map { ($0.error as? APIError)?.kind }, [.cancelled, .cancelled])
        let stats = try await stats()
        XCTAssertEqual(stats.photosStored, 0)
        XCTAssertEqual(stats.requests["POST /reviews/:review_id/photos"] ?? 0, 0)
    }

    func test_theBatchsFirstProgress_isZeroOfItsTotal_beforeAnyByteIsSent() async throws {
        let uploads = try await photos(3, bytes: 50_000)
        let reported = Locked<[PromiseProgress]>([])
        // Held until the handler is added: progress is a latest-value stream, and a handler added
        // after bytes went would see those first.
        let release = DispatchSemaphore(value: 0)
        let held = try makeClient { $0.adapters = [GateAdapter(release: release)] }

        let batch = held.sendEach(uploads).progress { progress in reported.withLock { $0.append(progress) } }
        for _ in uploads { release.signal() }
        let outcomes = try await batch.value

        XCTAssertEqual(outcomes.compactMap(\.value).count, 3)
        // The three bodies: their bytes and each part's few header lines.
        let total = try XCTUnwrap(reported.value.last?.total)
        XCTAssertTrue((150_000...151_000).contains(total), "\(total)")
        XCTAssertEqual(reported.value.first, PromiseProgress(completed: 0, total: total, kind: .bytesSent))
        XCTAssertEqual(reported.value.last, PromiseProgress(completed: total, total: total, kind: .bytesSent))
        XCTAssertEqual(outcomes[0].description, "succeeded: \(outcomes[0].value!)")
    }

    func test_aRetriedUpload_neverTakesTheBatchsBarBack_andTheBarEndsAtItsTotal() async throws {
        // The middle photo fails once and is sent again: its bytes start again from zero. One
        // upload at a time, so nothing else moves the bar while it does.
        let uploads = try await photos(3, bytes: 50_000) { $0 == 1 ? "status=500;times=1" : nil }
        let reported = Locked<[PromiseProgress]>([])
        let client = try makeClient { $0.retriers = [RetryOnceAfter500()] }

        let batch = client.sendEach(uploads, concurrency: 1).progress { progress in reported.withLock { $0.append(progress) } }
        let outcomes = try await batch.value

        XCTAssertEqual(outcomes.compactMap(\.value).count, 3)
        let bar = reported.value
        let total = try XCTUnwrap(bar.last?.total)
        XCTAssertTrue(bar.allSatisfy { $0.total == total && $0.kind == .bytesSent }, "one bar: \(bar)")
        XCTAssertEqual(zip(bar, bar.dropFirst()).filter { $1.completed < $0.completed }.map { "\($0.completed) then \($1.completed)" }, [])
        XCTAssertEqual(bar.last?.completed, total)
    }
}

/// Retries an attempt the server answered with a 500, once, at once: for non-idempotent requests,
/// which the retry policy leaves alone.
private struct RetryOnceAfter500: RequestRetrier {
    func retry(_ request: URLRequest, failedWith error: any Error, context: AttemptContext) async -> RetryDecision {
        guard context.attempt == 1, (error as? APIError)?.statusCode == 500 else { return .doNotRetry }
        return .retry(after: .zero, cause: .transientFailure)
    }
}
