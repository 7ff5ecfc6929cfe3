@testable import BatonPromise
import TestSupport
import XCTest

/// States, results, and settling exactly once.
final class SettlingTests: XCTestCase {
    func test_pendingPromise_isRunningWithNoResult() {
        let deferred = Deferred<Int>()
        XCTAssertEqual(deferred.promise.state, .running)
        XCTAssertNil(deferred.promise.result)
    }

    func test_pausedPromise_isPausedWithNoResult() {
        let deferred = Deferred<Int>()
        deferred.promise.pause()
        XCTAssertEqual(deferred.promise.state, .paused)
        XCTAssertNil(deferred.promise.result)
    }

    func test_fulfil_setsStateFulfilledAndResultValue() {
        let deferred = Deferred<Int>()
        deferred.fulfill(5)
        XCTAssertEqual(deferred.promise.state, .fulfilled)
        XCTAssertEqual(deferred.promise.fulfilledValue, 5)
    }

    func test_reject_setsStateRejectedAndResultError() {
        let deferred = Deferred<Int>()
        deferred.reject(TestError.boom)
        XCTAssertEqual(deferred.promise.state, .rejected)
        XCTAssertTestError(deferred.promise.failureError, .boom)
    }

    func test_cancel_setsStateCancelledAndResultCancellationError() {
        let deferred = Deferred<Int>()
        deferred.promise.cancel()
        XCTAssertEqual(deferred.promise.state, .cancelled)
        XCTAssertCancellation(deferred.promise.failureError)
    }

    func test_rejectingWithCancellationError_countsAsCancelled() {
        let deferred = Deferred<Int>()
        let seen = Recorder<Bool>()
        deferred.promise.failure { _, isCancelled in seen.append(isCancelled) }
        deferred.reject(CancellationError())
        XCTAssertEqual(deferred.promise.state, .cancelled)
        XCTAssertEqual(seen.events, [true])
    }

    func test_secondFulfil_isIgnored() {
        let deferred = Deferred<Int>()
        let values = Recorder<Int>()
        deferred.promise.success { values.append($0) }
        deferred.fulfill(1)
        deferred.fulfill(2)
        XCTAssertEqual(deferred.promise.fulfilledValue, 1)
        XCTAssertEqual(values.events, [1])
    }

    func test_rejectAfterFulfil_isIgnored() {
        let deferred = Deferred<Int>()
        let outcomes = Recorder<String>()
        deferred.promise.then { outcomes.append("\($0)") }
        deferred.fulfill(1)
        deferred.reject(TestError.boom)
        XCTAssertEqual(deferred.promise.state, .fulfilled)
        XCTAssertEqual(deferred.promise.fulfilledValue, 1)
        XCTAssertEqual(outcomes.count, 1)
    }

    func test_cancelAfterFulfil_isIgnored() {
        let deferred = Deferred<Int>()
        let failures = Recorder<Bool>()
        deferred.promise.failure { _, isCancelled in failures.append(isCancelled) }
        deferred.fulfill(1)
        deferred.promise.cancel()
        XCTAssertEqual(deferred.promise.state, .fulfilled)
        XCTAssertEqual(deferred.cancelCount, 0)
        XCTAssertEqual(failures.events, [])
    }

    func test_fulfilAfterReject_isIgnored() {
        let deferred = Deferred<Int>()
        deferred.reject(TestError.step(1))
        deferred.fulfill(9)
        XCTAssertEqual(deferred.promise.state, .rejected)
        XCTAssertTestError(deferred.promise.failureError, .step(1))
    }

    func test_secondReject_isIgnored() {
        let deferred = Deferred<Int>()
        let errors = Recorder<TestError?>()
        deferred.promise.failure { error, _ in errors.append(error as? TestError) }
        deferred.reject(TestError.step(1))
        deferred.reject(TestError.step(2))
        XCTAssertTestError(deferred.promise.failureError, .step(1))
        XCTAssertEqual(errors.events, [.step(1)])
    }

    func test_fulfilAfterCancel_isIgnored() {
        let deferred = Deferred<Int>()
        let values = Recorder<Int>()
        deferred.promise.success { values.append($0) }
        deferred.promise.cancel()
        deferred.fulfill(3)
        XCTAssertEqual(deferred.promise.state, .cancelled)
        XCTAssertEqual(values.events, [])
    }

    func test_secondCancel_isIgnored() {
        let deferred = Deferred<Int>()
        let failures = Recorder<Bool>()
        deferred.promise.failure { _, isCancelled in failures.append(isCancelled) }
        deferred.promise.cancel()
        deferred.promise.cancel()
        XCTAssertEqual(deferred.cancelCount, 1)
        XCTAssertEqual(failures.events, [true])
    }

    func test_progressAfterSettling_isDropped() {
        let deferred = Deferred<Int>()
        let reported = Recorder<PromiseProgress>()
        deferred.promise.progress { reported.append($0) }
        deferred.report(1, of: 2)
        deferred.fulfill(0)
        deferred.report(2, of: 2)
        XCTAssertEqual(reported.events, [progress(1, of: 2)])
    }

    /// Work that finished before anyone subscribed still tells how far it came, once, to the
    /// first handlers; later reports are dropped as ever.
    func test_progressNobodyTookBeforeSettling_goesToTheFirstHandlers_beforeTheSettlement() {
        let deferred = Deferred<Int>()
        deferred.report(1, of: 2)
        deferred.fulfill(0)
        let events = Recorder<String>()
        deferred.promise.progress { events.append("\($0.completed) of \($0.total ?? 0)") }
        deferred.promise.success { events.append("fulfilled \($0)") }
        deferred.report(2, of: 2)
        let later = Recorder<PromiseProgress>()
        deferred.promise.progress { later.append($0) }
        XCTAssertEqual(events.events, ["1 of 2", "fulfilled 0"])
        XCTAssertEqual(later.events, [])
    }

    func test_aHandlerAddedAfterSettling_getsNoProgressThatAnEarlierHandlerTook() {
        let deferred = Deferred<Int>()
        let first = Recorder<PromiseProgress>()
        deferred.promise.progress { first.append($0) }
        deferred.report(1, of: 2)
        deferred.fulfill(0)
        let second = Recorder<PromiseProgress>()
        deferred.promise.progress { second.append($0) }
        XCTAssertEqual(first.events, [progress(1, of: 2)])
        XCTAssertEqual(second.events, [])
    }

    func test_pausingASettledPromise_doesNothing() {
        let deferred = Deferred<Int>()
        deferred.fulfill(1)
        deferred.promise.pause()
        XCTAssertEqual(deferred.promise.state, .fulfilled)
        XCTAssertEqual(deferred.pauseCount, 0)
    }

    func test_resumingASettledPromise_doesNothing() {
        let deferred = Deferred<Int>()
        deferred.promise.pause()
        deferred.reject(TestError.boom)
        deferred.promise.resume()
        XCTAssertEqual(deferred.promise.state, .rejected)
        XCTAssertEqual(deferred.resumeCount, 0)
    }

    func test_promiseStateIsPending_onlyForRunningAndPaused() {
        XCTAssertTrue(PromiseState.running.isPending)
        XCTAssertTrue(PromiseState.paused.isPending)
        XCTAssertFalse(PromiseState.fulfilled.isPending)
        XCTAssertFalse(PromiseState.rejected.isPending)
        XCTAssertFalse(PromiseState.cancelled.isPending)
    }

    func test_description_namesValueTypeAndState() {
        let deferred = Deferred<Int>()
        XCTAssertEqual(deferred.promise.description, "Promise<Int>(running)")
        deferred.fulfill(1)
        XCTAssertEqual(deferred.promise.description, "Promise<Int>(fulfilled)")
    }

    func test_promiseErrorDescriptions_nameTheirCase() {
        XCTAssertEqual(
            PromiseError.abandoned.description,
            "The promise's work released its fulfil and reject callbacks without settling it."
        )
        XCTAssertEqual(
            PromiseError.allRejected([TestError.step(1), TestError.boom]).description,
            "Every one of the 2 promises was rejected: step 1; boom"
        )
        XCTAssertEqual(
            PromiseError.noPromises.description,
            "race was given no promises, so nothing could ever settle it."
        )
        XCTAssertEqual(
            PromiseError.timedOut(after: .seconds(2)).description,
            "The promise did not settle within 2.0 seconds; it was cancelled."
        )
    }
}
