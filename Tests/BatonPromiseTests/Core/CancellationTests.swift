@testable import BatonPromise
import TestSupport
import XCTest

/// cancel(): what it settles, which cancel handler it reaches, and what never runs after it.
final class CancellationTests: XCTestCase {
    func test_cancel_runsTheCancelHandlerExactlyOnce() {
        let deferred = Deferred<Int>()
        deferred.promise.cancel()
        deferred.promise.cancel()
        XCTAssertEqual(deferred.cancelCount, 1)
    }

    func test_cancellingTheLastPromise_cancelsTheRunningStep() {
        let log = Recorder<String>()
        let find = Deferred<Int>("find", log: log)
        let last = find.promise
            .success { $0 + 1 }
            .success { $0 * 2 }
        last.cancel()
        XCTAssertEqual(log.events, ["find.cancel"])
        XCTAssertEqual(find.promise.state, .cancelled)
        XCTAssertEqual(last.state, .cancelled)
    }

    func test_cancellingAMiddlePromise_cancelsTheRunningStepAndTheRestOfTheChain() {
        let find = Deferred<Int>()
        let middle = find.promise.success { $0 + 1 }
        let last = middle.success { $0 * 2 }
        middle.cancel()
        XCTAssertEqual(find.cancelCount, 1)
        XCTAssertEqual(last.state, .cancelled)
    }

    func test_cancellingTheFirstPromise_cancelsEveryPromiseAfterIt() {
        let find = Deferred<Int>()
        let middle = find.promise.success { $0 + 1 }
        let last = middle.success { $0 * 2 }
        find.promise.cancel()
        XCTAssertEqual(find.cancelCount, 1)
        XCTAssertEqual([middle.state, last.state], [.cancelled, .cancelled])
    }

    func test_afterCancellingTheLastPromise_laterStepsNeverStart() {
        let find = Deferred<Int>()
        let ran = Recorder<String>()
        let last = find.promise
            .success { value -> Int in
                ran.append("step 1")
                return value
            }
            .success { value -> Int in
                ran.append("step 2")
                return value
            }
        last.cancel()
        find.fulfill(1)  // too late: ignored
        XCTAssertEqual(ran.events, [])
        XCTAssertEqual(last.state, .cancelled)
    }

    func test_failureAfterTheCancelledPromise_seesIsCancelledTrue() {
        let find = Deferred<Int>()
        let seen = Recorder<String>()
        let last = find.promise.success { $0 + 1 }.success { $0 * 2 }
        last.failure { error, isCancelled in seen.append("\(type(of: error)) \(isCancelled)") }
        last.cancel()
        XCTAssertEqual(seen.events, ["CancellationError true"])
    }

    func test_cancellingWhileTheStepReturnedByASuccessBodyRuns_cancelsThatInnerPromise() {
        let log = Recorder<String>()
        let find = Deferred<Int>("find", log: log)
        let post = Deferred<String>("post", log: log)
        let upload = Deferred<[Int]>("upload", log: log)
        let startedUpload = Counter()
        let last = find.promise
            .success { _ in post.promise }
            .success { _ -> Promise<[Int]> in
                startedUpload.increment()
                return upload.promise
            }
        find.fulfill(1)
        last.cancel()
        XCTAssertEqual(log.events, ["post.cancel"])
        XCTAssertEqual(post.promise.state, .cancelled)
        XCTAssertEqual(startedUpload.value, 0)
        XCTAssertEqual(last.state, .cancelled)
    }

    func test_cancellingTheLastPromise_whenTheRunningStepIsTheSecond_doesNotTouchTheFirst() {
        let find = Deferred<Int>()
        let post = Deferred<Int>()
        let last = find.promise.success { _ in post.promise }.success { $0 + 1 }
        find.fulfill(1)
        last.cancel()
        XCTAssertEqual(find.cancelCount, 0)
        XCTAssertEqual(find.promise.state, .fulfilled)
        XCTAssertEqual(post.cancelCount, 1)
    }

    func test_cancellingThePromiseReturnedByRecover_cancelsTheRecoveryWork() {
        let find = Deferred<Int>()
        let fallback = Deferred<Int>()
        let recovered = find.promise.recover { _, _ in fallback.promise }
        find.reject(TestError.boom)
        recovered.cancel()
        XCTAssertEqual(fallback.cancelCount, 1)
        XCTAssertEqual(recovered.state, .cancelled)
    }

    func test_settingTheCancelHandlerAfterCancellation_runsItAtOnce() {
        let deferred = Deferred<Int>()
        deferred.promise.cancel()
        let ran = Counter()
        deferred.work.configuration.cancel = { ran.increment() }
        XCTAssertEqual(ran.value, 1)
    }

    func test_settingTheCancelHandlerAfterFulfilment_neverRunsIt() {
        let deferred = Deferred<Int>()
        deferred.fulfill(1)
        let ran = Counter()
        deferred.work.configuration.cancel = { ran.increment() }
        deferred.promise.cancel()
        XCTAssertEqual(ran.value, 0)
        XCTAssertNil(deferred.work.configuration.cancel)
    }

    func test_cancellingASettledPromise_doesNothing() {
        let deferred = Deferred<Int>()
        let failures = Counter()
        deferred.fulfill(4)
        deferred.promise.failure { _, _ in failures.increment() }
        deferred.promise.cancel()
        XCTAssertEqual(deferred.promise.state, .fulfilled)
        XCTAssertEqual(deferred.promise.fulfilledValue, 4)
        XCTAssertEqual(deferred.cancelCount, 0)
        XCTAssertEqual(failures.value, 0)
    }

    func test_cancellingARejectedPromise_doesNothing() {
        let deferred = Deferred<Int>()
        deferred.reject(TestError.boom)
        deferred.promise.cancel()
        XCTAssertEqual(deferred.promise.state, .rejected)
        XCTAssertEqual(deferred.cancelCount, 0)
    }

    func test_cancelHandler_doesNotRunWhenTheWorkRejects() {
        let deferred = Deferred<Int>()
        deferred.reject(TestError.boom)
        XCTAssertEqual(deferred.cancelCount, 0)
    }

    func test_cancellingAPromiseSharedByTwoChains_cancelsItForBoth() {
        let shared = Deferred<Int>()
        let first = shared.promise.success { $0 + 1 }
        let second = shared.promise.success { $0 + 2 }
        first.cancel()
        XCTAssertEqual(shared.cancelCount, 1)
        XCTAssertEqual([first.state, second.state], [.cancelled, .cancelled])
    }

    func test_then_doesNotRun_whenItsReturnedPromiseWasCancelled() {
        let find = Deferred<Int>()
        let ran = Counter()
        let next = find.promise.then { _ in ran.increment() }
        next.cancel()
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(find.cancelCount, 1)
    }

    func test_cancellingThePromiseReturnedByFailure_stillRunsTheFailureObserverWithIsCancelledTrue() {
        // The chain shape: the value kept (and later cancelled) is the one `failure`
        // returns. `failure` documents that it sees an error from any step and that its returned
        // promise settles "after body has run".
        let find = Deferred<Int>()
        let seen = Recorder<Bool>()
        let request = find.promise
            .success { $0 + 1 }
            .failure { _, isCancelled in seen.append(isCancelled) }
        request.cancel()
        XCTAssertEqual(find.cancelCount, 1)
        XCTAssertEqual(request.state, .cancelled)
        XCTAssertEqual(seen.events, [true])
    }

    func test_cancellingThePromiseReturnedByAlways_stillRunsTheAlwaysBody() {
        // `always` documents that it runs "whatever the outcome (a cancellation included)": the
        // clean-up (hiding a spinner) must happen when the request it guards is cancelled.
        let find = Deferred<Int>()
        let cleanedUp = Counter()
        let request = find.promise
            .success { $0 + 1 }
            .always { cleanedUp.increment() }
        request.cancel()
        XCTAssertEqual(find.cancelCount, 1)
        XCTAssertEqual(cleanedUp.value, 1)
    }
}
