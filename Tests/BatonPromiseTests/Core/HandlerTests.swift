@testable import BatonPromise
import TestSupport
import XCTest

/// progress, then, success, failure, recover and always: what each sees, what the promise it
/// returns settles with, and the order in which handlers run.
final class HandlerTests: XCTestCase {
    // MARK: then

    func test_then_seesTheFulfilledResult() {
        let deferred = Deferred<Int>()
        let seen = Recorder<Int?>()
        deferred.promise.then { result in seen.append(result.value) }
        deferred.fulfill(4)
        XCTAssertEqual(seen.events, [4])
    }

    func test_then_seesTheRejectedResult() {
        let deferred = Deferred<Int>()
        let seen = Recorder<TestError?>()
        deferred.promise.then { result in seen.append(result.error as? TestError) }
        deferred.reject(TestError.boom)
        XCTAssertEqual(seen.events, [.boom])
    }

    func test_then_seesACancellationOfItsUpstream() {
        let deferred = Deferred<Int>()
        let seen = Recorder<Bool>()
        deferred.promise.then { result in seen.append(result.error is CancellationError) }
        deferred.promise.cancel()
        XCTAssertEqual(seen.events, [true])
    }

    func test_then_fulfilsTheReturnedPromiseWithTheBodysValue() {
        let deferred = Deferred<Int>()
        let next: Promise<String> = deferred.promise.then { result in "got \(result.value ?? -1)" }
        deferred.fulfill(8)
        XCTAssertEqual(next.fulfilledValue, "got 8")
    }

    func test_then_turnsARejectionIntoAValue() {
        let deferred = Deferred<Int>()
        let next = deferred.promise.then { result in result.error == nil ? "ok" : "failed" }
        deferred.reject(TestError.boom)
        XCTAssertEqual(next.fulfilledValue, "failed")
    }

    func test_then_returningAPromise_settlesAsThatPromise() {
        let deferred = Deferred<Int>()
        let inner = Deferred<String>()
        let next: Promise<String> = deferred.promise.then { _ in inner.promise }
        deferred.fulfill(1)
        XCTAssertEqual(next.state, .running)
        inner.fulfill("inner")
        XCTAssertEqual(next.fulfilledValue, "inner")
    }

    func test_then_throwing_rejectsTheReturnedPromiseWithTheThrownError() {
        let deferred = Deferred<Int>()
        let next = deferred.promise.then { _ -> Int in throw TestError.step(3) }
        deferred.fulfill(1)
        XCTAssertTestError(next.failureError, .step(3))
    }

    // MARK: success

    func test_success_receivesTheValue() {
        let deferred = Deferred<String>()
        let seen = Recorder<String>()
        deferred.promise.success { seen.append($0) }
        deferred.fulfill("value")
        XCTAssertEqual(seen.events, ["value"])
    }

    func test_success_fulfilsTheReturnedPromiseWithTheTransformedValue() {
        let deferred = Deferred<Int>()
        let next: Promise<[Int]> = deferred.promise.success { Array(repeating: $0, count: 2) }
        deferred.fulfill(6)
        XCTAssertEqual(next.fulfilledValue, [6, 6])
    }

    func test_success_onRejection_doesNotRunAndPassesTheErrorOn() {
        let deferred = Deferred<Int>()
        let ran = Counter()
        let next = deferred.promise.success { _ in ran.increment() }
        deferred.reject(TestError.step(2))
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(next.state, .rejected)
        XCTAssertTestError(next.failureError, .step(2))
    }

    func test_success_onCancellation_doesNotRunAndPassesTheCancellationOn() {
        let deferred = Deferred<Int>()
        let ran = Counter()
        let next = deferred.promise.success { _ in ran.increment() }
        deferred.promise.cancel()
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(next.state, .cancelled)
    }

    // MARK: failure

    func test_failure_receivesTheErrorWithIsCancelledFalse_onRejection() {
        let deferred = Deferred<Int>()
        let seen = Recorder<String>()
        deferred.promise.failure { error, isCancelled in seen.append("\(error) \(isCancelled)") }
        deferred.reject(TestError.step(5))
        XCTAssertEqual(seen.events, ["step 5 false"])
    }

    func test_failure_receivesIsCancelledTrue_onCancellation() {
        let deferred = Deferred<Int>()
        let seen = Recorder<Bool>()
        deferred.promise.failure { error, isCancelled in seen.append(isCancelled && error is CancellationError) }
        deferred.promise.cancel()
        XCTAssertEqual(seen.events, [true])
    }

    func test_failure_onFulfilment_doesNotRunAndReturnedPromiseFulfilsWithTheSameValue() {
        let deferred = Deferred<Int>()
        let ran = Counter()
        let next = deferred.promise.failure { _, _ in ran.increment() }
        deferred.fulfill(12)
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(next.fulfilledValue, 12)
    }

    func test_failure_returnedPromiseRejectsWithTheSameErrorAfterTheObserverRan() {
        let deferred = Deferred<Int>()
        let log = Recorder<String>()
        let next = deferred.promise.failure { _, _ in log.append("observer") }
        next.failure { error, _ in log.append("next failed with \(error)") }
        deferred.reject(TestError.boom)
        XCTAssertEqual(log.events, ["observer", "next failed with boom"])
        XCTAssertEqual(next.state, .rejected)
    }

    func test_failure_returnedPromiseIsCancelled_whenTheOriginalWasCancelled() {
        let deferred = Deferred<Int>()
        let next = deferred.promise.failure { _, _ in }
        deferred.promise.cancel()
        XCTAssertEqual(next.state, .cancelled)
    }

    func test_failureObserverWithAnIfStatement_compilesAndRunsAsAnObserver() {
        let rejected = Deferred<Int>()
        let cancelled = Deferred<Int>()
        let shown = Recorder<String>()
        // The everyday observing closure from the issue: an `if` without `else`. It must not be
        // ambiguous with recovery (which is why recovery is named `recover`).
        let observedRejection = rejected.promise.failure { error, isCancelled in if !isCancelled { shown.append("\(error)") } }
        let observedCancellation = cancelled.promise.failure { error, isCancelled in if !isCancelled { shown.append("\(error)") } }
        rejected.reject(TestError.boom)
        cancelled.promise.cancel()
        XCTAssertEqual(shown.events, ["boom"])
        XCTAssertEqual(observedRejection.state, .rejected)
        XCTAssertEqual(observedCancellation.state, .cancelled)
    }

    // MARK: recover

    func test_recoverWithAValue_fulfilsTheReturnedPromiseWithIt() {
        let deferred = Deferred<Int>()
        let recovered = deferred.promise.recover { _, _ in 99 }
        deferred.reject(TestError.boom)
        XCTAssertEqual(recovered.state, .fulfilled)
        XCTAssertEqual(recovered.fulfilledValue, 99)
    }

    func test_recover_receivesTheErrorAndIsCancelled() {
        let rejected = Deferred<Int>()
        let cancelled = Deferred<Int>()
        let seen = Recorder<String>()
        let first = rejected.promise.recover { error, isCancelled in
            seen.append("\(error) \(isCancelled)")
            return 1
        }
        let second = cancelled.promise.recover { error, isCancelled in
            seen.append("\(error is CancellationError) \(isCancelled)")
            return 2
        }
        rejected.reject(TestError.step(7))
        cancelled.promise.cancel()
        XCTAssertEqual(seen.events, ["step 7 false", "true true"])
        XCTAssertEqual(first.fulfilledValue, 1)
        XCTAssertEqual(second.fulfilledValue, 2)
    }

    func test_recover_onFulfilment_doesNotRunAndPassesTheValueOn() {
        let deferred = Deferred<Int>()
        let ran = Counter()
        let recovered = deferred.promise.recover { _, _ in
            ran.increment()
            return 0
        }
        deferred.fulfill(5)
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(recovered.fulfilledValue, 5)
    }

    func test_recoverThatThrows_rejectsWithTheThrownError() {
        let deferred = Deferred<Int>()
        let recovered = deferred.promise.recover { _, _ -> Int in throw TestError.step(2) }
        deferred.reject(TestError.step(1))
        XCTAssertTestError(recovered.failureError, .step(2))
    }

    func test_recoverWithAPromise_settlesAsThatPromise() {
        let deferred = Deferred<Int>()
        let fallback = Deferred<Int>()
        let recovered = deferred.promise.recover { _, _ in fallback.promise }
        deferred.reject(TestError.boom)
        XCTAssertEqual(recovered.state, .running)
        fallback.fulfill(77)
        XCTAssertEqual(recovered.fulfilledValue, 77)
    }

    func test_recoverWithAPromiseThatRejects_rejectsWithItsError() {
        let deferred = Deferred<Int>()
        let recovered = deferred.promise.recover { _, _ in Promise<Int>(error: TestError.step(8)) }
        deferred.reject(TestError.boom)
        XCTAssertTestError(recovered.failureError, .step(8))
    }

    func test_recoverWithAPromise_onFulfilment_doesNotRun() {
        let deferred = Deferred<Int>()
        let ran = Counter()
        let recovered = deferred.promise.recover { _, _ -> Promise<Int> in
            ran.increment()
            return Promise(value: 0)
        }
        deferred.fulfill(3)
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(recovered.fulfilledValue, 3)
    }

    // MARK: always

    func test_always_runsOnFulfilmentAndPassesTheValueOn() {
        let deferred = Deferred<Int>()
        let ran = Counter()
        let next = deferred.promise.always { ran.increment() }
        deferred.fulfill(2)
        XCTAssertEqual(ran.value, 1)
        XCTAssertEqual(next.fulfilledValue, 2)
    }

    func test_always_runsOnRejectionAndPassesTheErrorOn() {
        let deferred = Deferred<Int>()
        let ran = Counter()
        let next = deferred.promise.always { ran.increment() }
        deferred.reject(TestError.boom)
        XCTAssertEqual(ran.value, 1)
        XCTAssertTestError(next.failureError, .boom)
    }

    func test_always_runsOnCancellationAndPassesTheCancellationOn() {
        let deferred = Deferred<Int>()
        let ran = Counter()
        let next = deferred.promise.always { ran.increment() }
        deferred.promise.cancel()
        XCTAssertEqual(ran.value, 1)
        XCTAssertEqual(next.state, .cancelled)
    }

    // MARK: progress

    func test_progress_returnsTheSamePromise() {
        let deferred = Deferred<Int>()
        let returned = deferred.promise.progress { _ in }
        XCTAssertTrue(returned === deferred.promise)
    }

    // MARK: Late handlers, order, exactly once

    func test_handlersAddedAfterSettling_stillRun() {
        let deferred = Deferred<Int>()
        deferred.fulfill(10)
        let log = Recorder<String>()
        deferred.promise.then { log.append("then \($0.value ?? -1)") }
        deferred.promise.success { log.append("success \($0)") }
        deferred.promise.failure { _, _ in log.append("failure") }
        deferred.promise.always { log.append("always") }
        XCTAssertEqual(log.events, ["then 10", "success 10", "always"])
    }

    func test_failureAndRecoverAddedAfterRejecting_stillRun() {
        let deferred = Deferred<Int>()
        deferred.reject(TestError.boom)
        let log = Recorder<String>()
        deferred.promise.failure { error, _ in log.append("failure \(error)") }
        let recovered = deferred.promise.recover { error, _ in
            log.append("recover \(error)")
            return 1
        }
        XCTAssertEqual(log.events, ["failure boom", "recover boom"])
        XCTAssertEqual(recovered.fulfilledValue, 1)
    }

    func test_handlersOfOnePromise_runInTheOrderAdded_acrossMixedKinds() {
        let deferred = Deferred<Int>()
        let log = Recorder<Int>()
        var recovered: [Promise<Int>] = []
        for index in 0..<600 {
            switch index % 6 {
            case 0: deferred.promise.then { _ in log.append(index) }
            case 1: deferred.promise.success { _ in log.append(index) }
            case 2: deferred.promise.always { log.append(index) }
            case 3: deferred.promise.success { _ -> Promise<Int> in
                log.append(index)
                return Promise(value: index)
            }
            case 4: recovered.append(deferred.promise.recover { _, _ in
                log.append(index)  // does not run on fulfilment
                return 0
            })
            default: deferred.promise.failure { _, _ in log.append(index) }  // does not run on fulfilment
            }
        }
        deferred.fulfill(1)
        XCTAssertEqual(log.events, (0..<600).filter { $0 % 6 < 4 })
        XCTAssertEqual(recovered.map(\.fulfilledValue), Array(repeating: 1, count: 100))
    }

    func test_handlersOfOnePromise_runInTheOrderAdded_onRejection() {
        let deferred = Deferred<Int>()
        let log = Recorder<String>()
        deferred.promise.always { log.append("always 1") }
        deferred.promise.failure { _, _ in log.append("failure 2") }
        deferred.promise.then { _ in log.append("then 3") }
        deferred.promise.success { _ in log.append("success (skipped)") }
        _ = deferred.promise.recover { _, _ in
            log.append("recover 4")
            return 0
        }
        deferred.promise.always { log.append("always 5") }
        deferred.reject(TestError.boom)
        XCTAssertEqual(log.events, ["always 1", "failure 2", "then 3", "recover 4", "always 5"])
    }

    func test_eachHandler_runsExactlyOnce() {
        let deferred = Deferred<Int>()
        let counters = (0..<4).map { _ in Counter() }
        deferred.promise.then { _ in counters[0].increment() }
        deferred.promise.success { _ in counters[1].increment() }
        deferred.promise.always { counters[2].increment() }
        deferred.promise.progress { _ in counters[3].increment() }
        deferred.report(1, of: 1)
        deferred.fulfill(1)
        deferred.fulfill(2)
        deferred.promise.cancel()
        XCTAssertEqual(counters.map(\.value), [1, 1, 1, 1])
    }

    func test_progressHandlers_andSettlementHandlers_runInRegistrationOrderForEachEvent() {
        let deferred = Deferred<Int>()
        let log = Recorder<String>()
        deferred.promise.progress { log.append("progress A \($0)") }
        deferred.promise.always { log.append("always") }
        deferred.promise.progress { log.append("progress B \($0)") }
        deferred.report(1, of: 2)
        deferred.fulfill(0)
        XCTAssertEqual(log.events, ["progress A 1/2", "progress B 1/2", "always"])
    }
}
