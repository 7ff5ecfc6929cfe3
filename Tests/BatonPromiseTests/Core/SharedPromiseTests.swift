import BatonSupport
@testable import BatonPromise
import Foundation
import TestSupport
import XCTest

/// SharedPromise: shares settle and progress with the work; the work is cancelled only when every
/// share is.
final class SharedPromiseTests: XCTestCase {
    /// Work that the test settles, counting its cancellations and pauses.
    private struct Work {
        let promise: Promise<Int>
        let fulfill: @Sendable (Int) -> Void
        let progress: @Sendable (PromiseProgress) -> Void
        let cancellations: Counter
        let pauses: Counter
    }

    private func makeWork() -> Work {
        let cancellations = Counter()
        let pauses = Counter()
        let captured = Locked<(@Sendable (Int) -> Void, @Sendable (PromiseProgress) -> Void)?>(nil)
        let promise = Promise<Int> { progress, fulfill, _, configure in
            captured.withLock { $0 = (fulfill, progress) }
            configure.cancel = { _ = cancellations.increment() }
            configure.pause = { _ = pauses.increment() }
        }
        let (fulfill, progress) = captured.value!
        return Work(promise: promise, fulfill: fulfill, progress: progress, cancellations: cancellations, pauses: pauses)
    }

    func test_everyShare_settlesWithTheWork_andReportsItsProgress() async throws {
        let work = makeWork()
        let shared = SharedPromise(work.promise)
        let first = shared.share()
        let second = shared.share()
        let seen = Recorder<Int64>()
        second.progress { seen.append($0.completed) }

        work.progress(progress(5, of: 10))
        work.fulfill(7)

        let firstValue = try await first.value
        let secondValue = try await second.value
        XCTAssertEqual([firstValue, secondValue], [7, 7])
        XCTAssertEqual(seen.events, [5])
    }

    func test_cancellingOneShare_leavesTheWorkRunningForTheOthers() async throws {
        let work = makeWork()
        let shared = SharedPromise(work.promise)
        let leaving = shared.share()
        let staying = shared.share()

        leaving.cancel()
        XCTAssertEqual(leaving.state, .cancelled)
        XCTAssertEqual(work.cancellations.value, 0)
        XCTAssertFalse(shared.isCancelled)

        work.fulfill(3)
        let value = try await staying.value
        XCTAssertEqual(value, 3)
    }

    func test_cancellingEveryShare_cancelsTheWork_once() {
        let work = makeWork()
        let shared = SharedPromise(work.promise)
        let shares = (0..<3).map { _ in shared.share() }

        shares[0].cancel()
        shares[1].cancel()
        XCTAssertEqual(work.cancellations.value, 0)
        shares[2].cancel()
        shares[2].cancel()

        XCTAssertEqual(work.cancellations.value, 1)
        XCTAssertTrue(shared.isCancelled)
        XCTAssertEqual(shared.share().state, .cancelled, "a share taken afterwards settles as the work did")
    }

    func test_cancellingAShareDownstream_reachesItsShareOnly() {
        let work = makeWork()
        let shared = SharedPromise(work.promise)
        let chained = shared.share().success { $0 + 1 }
        let other = shared.share()

        chained.cancel()

        XCTAssertEqual(work.cancellations.value, 0)
        XCTAssertTrue(other.isPending)
    }

    func test_pausingAShare_doesNotPauseTheWork() {
        let work = makeWork()
        let shared = SharedPromise(work.promise)
        let share = shared.share()

        share.pause()

        XCTAssertEqual(work.pauses.value, 0)
        XCTAssertEqual(share.state, .paused)
    }

    func test_aShareTakenAfterTheWorkSettled_settlesAtOnce() async throws {
        let shared = SharedPromise(Promise(value: 9))
        let value = try await shared.share().value
        XCTAssertEqual(value, 9)
        XCTAssertFalse(shared.isCancelled)
    }
}
