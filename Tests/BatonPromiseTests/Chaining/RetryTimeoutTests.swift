import BatonSupport
@testable import BatonPromise
import TestSupport
import XCTest

/// Promise.retry(times:delay:_:) and timeout(after:).
final class RetryTimeoutTests: XCTestCase {
    // MARK: retry

    func test_retry_failingTwiceThenSucceeding_withTimesTwo_fulfilsAfterThreeAttempts() {
        let attempts = Counter()
        let settled = expectation(description: "settled")
        let retried = Promise<Int>.retry(times: 2, delay: .milliseconds(10)) {
            let attempt = attempts.increment()
            return attempt < 3 ? Promise(error: TestError.step(attempt)) : Promise(value: attempt * 10)
        }
        retried.always { settled.fulfill() }
        wait(for: [settled], timeout: 30)
        XCTAssertEqual(retried.fulfilledValue, 30)
        XCTAssertEqual(attempts.value, 3)
    }

    func test_retry_exhausted_rejectsWithTheLastAttemptsError() {
        let attempts = Counter()
        let settled = expectation(description: "settled")
        let retried = Promise<Int>.retry(times: 2, delay: .milliseconds(10)) {
            Promise(error: TestError.step(attempts.increment()))
        }
        retried.always { settled.fulfill() }
        wait(for: [settled], timeout: 30)
        XCTAssertTestError(retried.failureError, .step(3))
        XCTAssertEqual(attempts.value, 3)
    }

    func test_retry_firstAttemptFulfilling_callsTheFactoryOnce() {
        let attempts = Counter()
        let retried = Promise<String>.retry(times: 5) {
            attempts.increment()
            return Promise(value: "first time")
        }
        XCTAssertEqual(retried.fulfilledValue, "first time")
        XCTAssertEqual(attempts.value, 1)
    }

    func test_retry_pendingAttempt_keepsTheRetriedPromisePendingUntilItSettles() {
        let attempt = Deferred<Int>()
        let retried = Promise<Int>.retry(times: 1) { attempt.promise }
        XCTAssertEqual(retried.state, .running)
        attempt.fulfill(4)
        XCTAssertEqual(retried.fulfilledValue, 4)
    }

    func test_retry_attemptRejectingWithCancellation_isNotRetried() {
        let attempts = Counter()
        let retried = Promise<Int>.retry(times: 3) {
            attempts.increment()
            return Promise(error: CancellationError())
        }
        // Settled at once: a retry would have left it pending until the next attempt.
        XCTAssertEqual(retried.state, .cancelled)
        XCTAssertEqual(attempts.value, 1)
    }

    func test_retry_negativeTimes_countsAsZero() {
        let attempts = Counter()
        let retried = Promise<Int>.retry(times: -3) {
            Promise(error: TestError.step(attempts.increment()))
        }
        XCTAssertTestError(retried.failureError, .step(1))
        XCTAssertEqual(attempts.value, 1)
    }

    /// The attempt's work fails after the cancel, as work that stops often does: that failure
    /// must not start another attempt (with no delay, one would start at once).
    func test_retry_cancellingDuringAnAttempt_cancelsIt_andItsLateFailureStartsNoOther() {
        let attempts = Recorder<Deferred<Int>>()
        let secondAttempt = expectation(description: "a second attempt started")
        secondAttempt.isInverted = true
        let retried = Promise<Int>.retry(times: 3) {
            let attempt = Deferred<Int>()
            attempts.append(attempt)
            if attempts.count > 1 { secondAttempt.fulfill() }
            return attempt.promise
        }
        retried.cancel()
        attempts.events[0].reject(TestError.boom)
        XCTAssertEqual(retried.state, .cancelled)
        XCTAssertEqual(attempts.events.map(\.cancelCount), [1])
        wait(for: [secondAttempt], timeout: 0.5)
        XCTAssertEqual(attempts.count, 1)
    }

    func test_retry_doesNotStartTheNextAttemptBeforeTheDelay() {
        let starts = Recorder<ContinuousClock.Instant>()
        let settled = expectation(description: "settled")
        let delay = Duration.milliseconds(50)
        let retried = Promise<Int>.retry(times: 1, delay: delay) {
            starts.append(.now)
            return starts.count == 1 ? Promise(error: TestError.boom) : Promise(value: 2)
        }
        retried.always { settled.fulfill() }
        wait(for: [settled], timeout: 30)
        XCTAssertEqual(retried.fulfilledValue, 2)
        XCTAssertEqual(starts.count, 2)
        let gap = starts.events[1] - starts.events[0]
        XCTAssertGreaterThanOrEqual(gap, delay)
    }

    func test_retry_reportsTheProgressOfTheRunningAttempt() {
        let attempt = Deferred<Int>()
        let received = Recorder<PromiseProgress>()
        let retried = Promise<Int>.retry(times: 1) { attempt.promise }
        retried.progress { received.append($0) }
        attempt.report(3, of: 4)
        XCTAssertEqual(received.events, [progress(3, of: 4)])
    }

    func test_retry_pausingPausesTheRunningAttempt() {
        let attempt = Deferred<Int>()
        let retried = Promise<Int>.retry(times: 1) { attempt.promise }
        retried.pause()
        retried.resume()
        XCTAssertEqual([attempt.pauseCount, attempt.resumeCount], [1, 1])
    }

    // MARK: timeout

    func test_timeout_rejectsWithTimedOut_andCancelsTheOriginal() {
        let original = Deferred<Int>()
        let settled = expectation(description: "settled")
        let limited = original.promise.timeout(after: .milliseconds(20))
        limited.always { settled.fulfill() }
        wait(for: [settled], timeout: 30)
        XCTAssertEqual(limited.state, .rejected)
        guard case .timedOut(let limit)? = limited.failureError as? PromiseError else {
            return XCTFail("expected PromiseError.timedOut, got \(String(describing: limited.result))")
        }
        XCTAssertEqual(limit, .milliseconds(20))
        XCTAssertEqual(original.cancelCount, 1)
        XCTAssertEqual(original.promise.state, .cancelled)
    }

    func test_timeout_failureObserverSeesTimedOutAsNotCancelled() {
        let original = Deferred<Int>()
        let settled = expectation(description: "settled")
        let seen = Recorder<String>()
        original.promise.timeout(after: .milliseconds(10)).failure { error, isCancelled in
            seen.append("\(error is PromiseError) \(isCancelled)")
            settled.fulfill()
        }
        wait(for: [settled], timeout: 30)
        XCTAssertEqual(seen.events, ["true false"])
    }

    /// The limit is an hour, which no pause of a busy machine reaches; the timer holds the
    /// limited promise weakly, so it costs nothing once the test ends.
    func test_timeout_promiseSettlingBeforeTheLimit_settlesNormally() {
        let original = Deferred<Int>()
        let limited = original.promise.timeout(after: .seconds(3600))
        original.fulfill(5)
        XCTAssertEqual(limited.fulfilledValue, 5)
        XCTAssertEqual(original.cancelCount, 0)
    }

    func test_timeout_rejectionBeforeTheLimit_passesTheErrorThrough() {
        let original = Deferred<Int>()
        let limited = original.promise.timeout(after: .seconds(3600))
        original.reject(TestError.boom)
        XCTAssertTestError(limited.failureError, .boom)
        XCTAssertEqual(original.cancelCount, 0)
    }

    func test_timeout_ofAnAlreadySettledPromise_settlesAtOnce() {
        let limited = Promise(value: "done").timeout(after: .milliseconds(100))
        XCTAssertEqual(limited.fulfilledValue, "done")
    }

    func test_timeout_cancellingTheLimitedPromise_cancelsTheOriginal() {
        let original = Deferred<Int>()
        let limited = original.promise.timeout(after: .seconds(60))
        limited.cancel()
        XCTAssertEqual(limited.state, .cancelled)
        XCTAssertEqual(original.cancelCount, 1)
    }

    func test_timeout_progressOfTheOriginal_reachesTheLimitedPromise() {
        let original = Deferred<Int>()
        let received = Recorder<PromiseProgress>()
        original.promise.timeout(after: .seconds(60)).progress { received.append($0) }
        original.report(1, of: 2)
        XCTAssertEqual(received.events, [progress(1, of: 2)])
        original.fulfill(0)
    }

    // MARK: retry's progress, pause and memory

    /// retry's doc: progress is the running attempt's, so it starts again with each attempt.
    func test_retry_progressIsTheRunningAttempts_andStartsAgainWithTheNext() {
        let attempts = Recorder<Deferred<Int>>()
        let received = Recorder<PromiseProgress>()
        let secondStarted = expectation(description: "the second attempt started")
        let retried = Promise<Int>.retry(times: 1) {
            let attempt = Deferred<Int>()
            attempts.append(attempt)
            if attempts.count == 2 { secondStarted.fulfill() }
            return attempt.promise
        }
        let settled = expectation(description: "the retried promise settled")
        let secondProgress = expectation(description: "the second attempt's progress arrived")
        retried.progress { progress in
            received.append(progress)
            if progress.completed == 1 { secondProgress.fulfill() }
        }.then { _ in settled.fulfill() }
        attempts.events[0].report(5, of: 10)
        attempts.events[0].reject(TestError.boom)
        wait(for: [secondStarted], timeout: 10)
        // The retry takes up the second attempt on its own thread: its progress is held until
        // then, and the attempt settles only once that progress has come through.
        attempts.events[1].report(1, of: 10)
        wait(for: [secondProgress], timeout: 10)
        attempts.events[1].fulfill(7)
        wait(for: [settled], timeout: 10)
        XCTAssertEqual(received.events, [progress(5, of: 10), progress(1, of: 10)])
        XCTAssertEqual(retried.fulfilledValue, 7)
    }

    /// Paused while it waits to retry: the next attempt starts paused, and a resume reaches it.
    /// The second attempt signals from its own pause and resume handlers, which run when the
    /// retry's pause and resume reach it, on whichever thread that happens.
    func test_retry_pausedDuringItsDelay_startsTheNextAttemptPaused() {
        let first = Deferred<Int>()
        let paused = expectation(description: "the second attempt was paused")
        let resumed = expectation(description: "the second attempt was resumed")
        let second = Locked<(@Sendable (Int) -> Void)?>(nil)
        let attempts = Counter()
        let retried = Promise<Int>.retry(times: 1, delay: .milliseconds(50)) {
            guard attempts.increment() > 1 else { return first.promise }
            return Promise { _, fulfill, _, configure in
                second.withLock { $0 = fulfill }
                configure.pause = { paused.fulfill() }
                configure.resume = { resumed.fulfill() }
            }
        }
        let settled = expectation(description: "the retry settled")
        retried.always { settled.fulfill() }

        first.reject(TestError.boom)
        retried.pause()
        XCTAssertEqual(retried.state, .paused)
        wait(for: [paused], timeout: 10)
        retried.resume()
        wait(for: [resumed], timeout: 10)
        second.value?(3)
        wait(for: [settled], timeout: 10)

        XCTAssertEqual(retried.fulfilledValue, 3)
        XCTAssertEqual(attempts.value, 2)
    }

    /// Cancelling during the delay drops the scheduled attempt and all it captured at once, not
    /// when the (here one-hour) timer would have fired: no other attempt can start, which no
    /// test waiting out a shorter delay could show on a machine that may pause it for as long.
    func test_retry_cancelledDuringItsDelay_releasesWhatTheAttemptCapturedAtOnce() {
        final class Captured: Sendable {}
        weak var weakCaptured: Captured?
        do {
            let captured = Captured()
            weakCaptured = captured
            let retried = Promise<Int>.retry(times: 1, delay: .seconds(3600)) {
                withExtendedLifetime(captured) {}
                return Promise(error: TestError.boom)
            }
            XCTAssertEqual(retried.state, .running)
            retried.cancel()
        }
        XCTAssertNil(weakCaptured)
    }
}
