@testable import BatonPromise
import TestSupport
import XCTest

/// pause() and resume(): state, the running step's handlers, and progress held while paused.
final class PauseResumeTests: XCTestCase {
    func test_pause_runsThePauseHandlerAndMakesThePromisePaused() {
        let deferred = Deferred<Int>()
        deferred.promise.pause()
        XCTAssertEqual(deferred.pauseCount, 1)
        XCTAssertEqual(deferred.promise.state, .paused)
    }

    func test_resume_runsTheResumeHandlerAndMakesThePromiseRunning() {
        let deferred = Deferred<Int>()
        deferred.promise.pause()
        deferred.promise.resume()
        XCTAssertEqual(deferred.resumeCount, 1)
        XCTAssertEqual(deferred.promise.state, .running)
    }

    func test_pausingTwice_runsThePauseHandlerOnce() {
        let deferred = Deferred<Int>()
        deferred.promise.pause()
        deferred.promise.pause()
        XCTAssertEqual(deferred.pauseCount, 1)
    }

    func test_resumingARunningPromise_doesNothing() {
        let deferred = Deferred<Int>()
        deferred.promise.resume()
        XCTAssertEqual(deferred.resumeCount, 0)
        XCTAssertEqual(deferred.promise.state, .running)
    }

    func test_pauseAndResumeCycles_runTheHandlersInTurn() {
        let log = Recorder<String>()
        let deferred = Deferred<Int>("download", log: log)
        for _ in 0..<3 {
            deferred.promise.pause()
            deferred.promise.resume()
        }
        XCTAssertEqual(log.events, Array(repeating: ["download.pause", "download.resume"], count: 3).flatMap { $0 })
    }

    func test_pausingTheLastPromise_reachesTheRunningStep() {
        let log = Recorder<String>()
        let find = Deferred<Int>("find", log: log)
        let last = find.promise.success { $0 + 1 }.success { $0 * 2 }
        last.pause()
        XCTAssertEqual(log.events, ["find.pause"])
        XCTAssertEqual(last.state, .paused)
        XCTAssertEqual(find.promise.state, .paused)
    }

    func test_resumingTheLastPromise_reachesTheRunningStep() {
        let log = Recorder<String>()
        let find = Deferred<Int>("find", log: log)
        let last = find.promise.success { $0 + 1 }.success { $0 * 2 }
        last.pause()
        last.resume()
        XCTAssertEqual(log.events, ["find.pause", "find.resume"])
        XCTAssertEqual([last.state, find.promise.state], [.running, .running])
    }

    func test_pausingWhileTheStepReturnedByASuccessBodyRuns_pausesThatInnerPromise() {
        let log = Recorder<String>()
        let find = Deferred<Int>("find", log: log)
        let post = Deferred<Int>("post", log: log)
        let last = find.promise.success { _ in post.promise }.success { $0 + 1 }
        find.fulfill(1)
        last.pause()
        last.resume()
        XCTAssertEqual(log.events, ["post.pause", "post.resume"])
    }

    func test_aStepStartingWhileTheChainIsPaused_isPausedAtOnce_andResumedWithTheChain() {
        let log = Recorder<String>()
        let find = Deferred<Int>("find", log: log)
        let post = Deferred<Int>("post", log: log)
        let last = find.promise.success { _ in post.promise }.success { $0 + 1 }
        last.pause()
        find.fulfill(1)  // a fulfil while paused still settles, and the next step starts
        XCTAssertEqual(post.promise.state, .paused)
        last.resume()
        XCTAssertEqual(log.events, ["find.pause", "post.pause", "post.resume"])
        XCTAssertEqual(post.promise.state, .running)
        post.fulfill(5)
        XCTAssertEqual(last.fulfilledValue, 6)
    }
    func test_onResume_theResumeHandlerRunsBeforeTheHeldProgressIsDelivered() {
        let log = Recorder<String>()
        let deferred = Deferred<Int>("work", log: log)
        deferred.promise.progress { log.append("progress \($0)") }
        deferred.promise.pause()
        deferred.report(1, of: 2)
        deferred.promise.resume()
        XCTAssertEqual(log.events, ["work.pause", "work.resume", "progress 1/2"])
    }

    func test_progressOfAPausedChain_isDeliveredToTheChainedPromiseOnResume() {
        let find = Deferred<Int>()
        let received = Recorder<PromiseProgress>()
        let last = find.promise.success { $0 + 1 }
        last.progress { received.append($0) }
        last.pause()
        find.report(1, of: 3)
        find.report(2, of: 3)
        XCTAssertEqual(received.events, [])
        last.resume()
        XCTAssertEqual(received.events, [progress(2, of: 3)])
    }

    func test_fulfilWhilePaused_fulfilsAtOnce() {
        let deferred = Deferred<Int>()
        let values = Recorder<Int>()
        deferred.promise.success { values.append($0) }
        deferred.promise.pause()
        deferred.fulfill(8)
        XCTAssertEqual(deferred.promise.state, .fulfilled)
        XCTAssertEqual(values.events, [8])
    }

    func test_rejectWhilePaused_rejectsAtOnce() {
        let deferred = Deferred<Int>()
        let errors = Recorder<TestError?>()
        deferred.promise.failure { error, _ in errors.append(error as? TestError) }
        deferred.promise.pause()
        deferred.reject(TestError.boom)
        XCTAssertEqual(deferred.promise.state, .rejected)
        XCTAssertEqual(errors.events, [.boom])
    }

    func test_cancelWhilePaused_cancelsAndRunsTheCancelHandler() {
        let deferred = Deferred<Int>()
        deferred.promise.pause()
        deferred.promise.cancel()
        XCTAssertEqual(deferred.promise.state, .cancelled)
        XCTAssertEqual(deferred.cancelCount, 1)
    }

    func test_pauseHandler_isNotRunAfterSettlement() {
        let deferred = Deferred<Int>()
        deferred.fulfill(1)
        deferred.promise.pause()
        deferred.promise.resume()
        XCTAssertEqual([deferred.pauseCount, deferred.resumeCount], [0, 0])
    }
}
