@testable import BatonPromise
import TestSupport
import XCTest

/// Bridges to Swift concurrency: `value`, async-closure promises and `progressUpdates`.
final class AsyncTests: XCTestCase {
    // MARK: value

    func test_value_returnsTheFulfilledValue() async throws {
        let value = try await Promise(value: "ready").value
        XCTAssertEqual(value, "ready")
    }

    func test_value_throwsTheRejectionError() async {
        do {
            _ = try await Promise<Int>(error: TestError.step(1)).value
            XCTFail("expected a rejection")
        } catch {
            XCTAssertTestError(error, .step(1))
        }
    }

    func test_value_ofACancelledPromise_throwsCancellationError() async {
        let deferred = Deferred<Int>()
        deferred.promise.cancel()
        do {
            _ = try await deferred.promise.value
            XCTFail("expected a cancellation")
        } catch {
            XCTAssertCancellation(error)
        }
    }

    func test_value_awaitedWhilePending_returnsOnceFulfilledFromAnotherThread() async throws {
        let deferred = Deferred<Int>()
        let waiting = Task { try await deferred.promise.value }
        DispatchQueue.global().async { deferred.fulfill(17) }
        let value = try await waiting.value
        XCTAssertEqual(value, 17)
    }

    func test_value_ofAChain_isTheLastStepsValue() async throws {
        let deferred = Deferred<Int>()
        let chain = deferred.promise.success { $0 + 1 }.success { "\($0)" }
        deferred.fulfill(41)
        let value = try await chain.value
        XCTAssertEqual(value, "42")
    }

    func test_cancellingTheAwaitingTask_cancelsThePromise_andTheAwaitThrowsCancellationError() async {
        let deferred = Deferred<Int>()
        let awaiting = expectation(description: "about to await")
        let waiting = Task {
            awaiting.fulfill()
            return try await deferred.promise.value
        }
        await fulfillment(of: [awaiting], timeout: 30)
        waiting.cancel()
        do {
            _ = try await waiting.value
            XCTFail("expected a cancellation")
        } catch {
            XCTAssertCancellation(error)
        }
        XCTAssertEqual(deferred.promise.state, .cancelled)
        XCTAssertEqual(deferred.cancelCount, 1)
    }

    func test_cancellingTheAwaitingTask_reachesTheRunningStepOfAChain() async {
        let log = Recorder<String>()
        let find = Deferred<Int>("find", log: log)
        let post = Deferred<Int>("post", log: log)
        let chain = find.promise.success { _ in post.promise }.success { $0 + 1 }
        find.fulfill(1)
        let waiting = Task { try await chain.value }
        waiting.cancel()
        _ = try? await waiting.value
        XCTAssertEqual(log.events, ["post.cancel"])
        XCTAssertEqual(chain.state, .cancelled)
    }

    // MARK: Promises made from async closures

    func test_cancellingAPromiseMadeFromAnAsyncClosure_cancelsItsSwiftTask() async {
        let started = expectation(description: "operation started")
        let finished = expectation(description: "operation finished")
        let observed = Recorder<String>()
        let promise = Promise<Int> {
            started.fulfill()
            do {
                try await Task.sleep(for: .seconds(60))
                observed.append("slept through")
            } catch {
                observed.append("\(type(of: error)), Task.isCancelled: \(Task.isCancelled)")
            }
            finished.fulfill()
            return 1
        }
        await fulfillment(of: [started], timeout: 30)
        promise.cancel()
        await fulfillment(of: [finished], timeout: 30)
        XCTAssertEqual(observed.events, ["CancellationError, Task.isCancelled: true"])
        XCTAssertEqual(promise.state, .cancelled)
    }

    func test_promiseMadeFromAnAsyncClosure_isNotCancelledByFulfilling() async throws {
        let promise = Promise<Bool> { Task.isCancelled }
        let wasCancelled = try await promise.value
        XCTAssertFalse(wasCancelled)
        XCTAssertEqual(promise.state, .fulfilled)
    }

    // MARK: progressUpdates

    func test_progressUpdates_yieldsEachProgressAndFinishesOnSettlement() async {
        let deferred = Deferred<Int>()
        let updates = deferred.promise.progressUpdates
        let received = (1...3).map { expectation(description: "received update \($0)") }
        let reader = Task {
            var all: [PromiseProgress] = []
            for await update in updates {
                all.append(update)
                received[all.count - 1].fulfill()
            }
            return all
        }
        for step in 1...3 {
            deferred.report(Int64(step), of: 3)
            await fulfillment(of: [received[step - 1]], timeout: 30)
        }
        deferred.fulfill(0)
        let all = await reader.value
        XCTAssertEqual(all, [progress(1, of: 3), progress(2, of: 3), progress(3, of: 3)])
    }

    /// The stream buffers the newest value only: a reader that starts after three reports sees the
    /// last of them.
    func test_progressUpdates_readAfterSeveralReports_yieldsOnlyTheNewest() async {
        let deferred = Deferred<Int>()
        let updates = deferred.promise.progressUpdates
        deferred.report(1, of: 3)
        deferred.report(2, of: 3)
        deferred.report(3, of: 3)
        deferred.fulfill(0)
        var all: [PromiseProgress] = []
        for await update in updates { all.append(update) }
        XCTAssertEqual(all, [progress(3, of: 3)])
    }

    func test_progressUpdates_ofASettledPromise_finishesAtOnceWithNothing() async {
        var all: [PromiseProgress] = []
        for await update in Promise(value: 1).progressUpdates { all.append(update) }
        XCTAssertEqual(all, [])
    }

    /// A reader that comes after the work is done, its progress taken by a handler already,
    /// still learns how far the work came.
    func test_progressUpdates_takenAfterSettlement_yieldTheLatestBeforeTheyEnd() async {
        let deferred = Deferred<Int>()
        let handled = Recorder<PromiseProgress>()
        deferred.promise.progress { handled.append($0) }
        deferred.report(1, of: 3)
        deferred.report(3, of: 3)
        deferred.fulfill(0)
        XCTAssertEqual(handled.events, [progress(1, of: 3), progress(3, of: 3)])
        var all: [PromiseProgress] = []
        for await update in deferred.promise.progressUpdates { all.append(update) }
        XCTAssertEqual(all, [progress(3, of: 3)])
    }

    func test_progressUpdates_finishesOnCancellation() async {
        let deferred = Deferred<Int>()
        let updates = deferred.promise.progressUpdates
        deferred.promise.cancel()
        var count = 0
        for await _ in updates { count += 1 }
        XCTAssertEqual(count, 0)
    }

    func test_endingTheProgressLoopEarly_doesNotCancelThePromise() async {
        let deferred = Deferred<Int>()
        let updates = deferred.promise.progressUpdates
        deferred.report(1, of: 2)
        for await update in updates {
            XCTAssertEqual(update, progress(1, of: 2))
            break
        }
        XCTAssertEqual(deferred.promise.state, .running)
        XCTAssertEqual(deferred.cancelCount, 0)
    }
}
