@testable import BatonPromise
import TestSupport
import XCTest

/// Progress values, progress handlers, and progress forwarded along a chain.
final class ProgressTests: XCTestCase {
    // MARK: PromiseProgress

    func test_progressValue_clampsNegativeCountsToZero() {
        let value = PromiseProgress(completed: -5, total: -1)
        XCTAssertEqual(value.completed, 0)
        XCTAssertEqual(value.total, 0)
    }

    func test_progressValue_fractionCompleted() {
        XCTAssertEqual(PromiseProgress(completed: 1, total: 4).fractionCompleted, 0.25)
        XCTAssertEqual(PromiseProgress(completed: 9, total: 4).fractionCompleted, 1)
        XCTAssertEqual(PromiseProgress(completed: 0, total: 0).fractionCompleted, 1)
        XCTAssertNil(PromiseProgress(completed: 3).fractionCompleted)
    }

    func test_progressValue_description() {
        XCTAssertEqual(PromiseProgress(completed: 2, total: 5).description, "2/5")
        XCTAssertEqual(PromiseProgress(completed: 2).description, "2/?")
    }

    // MARK: Handlers

    func test_progressReportedByTheWork_reachesTheHandlerInOrder() {
        let deferred = Deferred<Int>()
        let received = Recorder<PromiseProgress>()
        deferred.promise.progress { received.append($0) }
        deferred.report(1, of: 3)
        deferred.report(2, of: 3)
        deferred.report(3, of: 3)
        XCTAssertEqual(received.events, [progress(1, of: 3), progress(2, of: 3), progress(3, of: 3)])
    }

    func test_progressHandler_runsSynchronouslyOnTheReportingThread() {
        let deferred = Deferred<Int>()
        let threads = Recorder<UInt>()
        deferred.promise.progress { _ in threads.append(currentThreadID()) }
        let reporter = Recorder<UInt>()
        runOnNewThread {
            reporter.append(currentThreadID())
            deferred.report(1)
            reporter.append(UInt(threads.count))  // the handler already ran
        }
        XCTAssertEqual(threads.events, [reporter.events[0]])
        XCTAssertEqual(reporter.events[1], 1)
    }

    func test_progressReportedWhileAHandlerIsBusy_keepsOnlyTheNewest() {
        let deferred = Deferred<Int>()
        let received = Recorder<Int64>()
        deferred.promise.progress { value in
            received.append(value.completed)
            if value.completed == 1 {
                // Reported while this promise's handlers are being delivered: held, and only
                // the newest one is delivered next.
                deferred.report(2)
                deferred.report(3)
                deferred.report(4)
            }
        }
        deferred.report(1)
        XCTAssertEqual(received.events, [1, 4])
    }

    func test_progressHeldAtSettlement_isDeliveredBeforeTheSettlementHandlers() {
        let deferred = Deferred<Int>()
        let log = Recorder<String>()
        deferred.promise.progress { log.append("progress \($0)") }
        deferred.promise.always { log.append("settled") }
        deferred.promise.pause()
        deferred.report(5, of: 10)
        deferred.fulfill(1)
        XCTAssertEqual(log.events, ["progress 5/10", "settled"])
    }

    // MARK: Forwarding along a chain

    /// Promise's doc: progress reported before any handler was added is kept (the newest) and
    /// handed to the first handler added; later reports follow as usual.
    func test_progressReportedBeforeAnyHandler_isHandedToTheFirstHandlerAdded() {
        let work = Deferred<Int>()
        let received = Recorder<PromiseProgress>()
        work.report(1, of: 3)
        work.report(2, of: 3)

        work.promise.progress { received.append($0) }
        XCTAssertEqual(received.events, [progress(2, of: 3)])

        work.report(3, of: 3)
        XCTAssertEqual(received.events, [progress(2, of: 3), progress(3, of: 3)])
    }

    func test_chainedPromise_reportsItsUpstreamsProgress_whileTheUpstreamRuns() {
        let root = Deferred<Int>()
        let received = Recorder<PromiseProgress>()
        let chained = root.promise.success { $0 + 1 }
        chained.progress { received.append($0) }
        root.report(1, of: 4)
        root.report(2, of: 4)
        XCTAssertEqual(received.events, [progress(1, of: 4), progress(2, of: 4)])
    }

    func test_progressOfAPromiseReturnedByAStep_reachesTheChainedPromise() {
        let root = Deferred<Int>()
        let upload = Deferred<String>()
        let received = Recorder<PromiseProgress>()
        let chained: Promise<String> = root.promise.success { _ in upload.promise }
        chained.progress { received.append($0) }
        root.fulfill(1)
        upload.report(100, of: 300)
        upload.report(300, of: 300)
        upload.fulfill("uploaded")
        XCTAssertEqual(received.events, [progress(100, of: 300), progress(300, of: 300)])
        XCTAssertEqual(chained.fulfilledValue, "uploaded")
    }

    func test_chainedPromise_followsTheRunningStep_fromUpstreamToInnerPromise() {
        let find = Deferred<Int>("find")
        let post = Deferred<String>("post")
        let upload = Deferred<[Int]>("upload")
        let received = Recorder<PromiseProgress>()
        let last = find.promise
            .success { _ in post.promise }
            .success { _ in upload.promise }
            .progress { received.append($0) }
        find.report(1, of: 2)
        find.fulfill(1)
        post.report(10, of: 20)
        post.fulfill("posted")
        upload.report(3, of: 9)
        upload.fulfill([1])
        XCTAssertEqual(received.events, [progress(1, of: 2), progress(10, of: 20), progress(3, of: 9)])
        XCTAssertEqual(last.fulfilledValue, [1])
    }

    func test_progressOfAFinishedStep_noLongerReachesTheChainedPromise() {
        let root = Deferred<Int>()
        let inner = Deferred<Int>()
        let received = Recorder<PromiseProgress>()
        let chained = root.promise.success { _ in inner.promise }
        chained.progress { received.append($0) }
        root.fulfill(1)
        root.report(9, of: 9)  // dropped: root has settled
        inner.report(1, of: 2)
        XCTAssertEqual(received.events, [progress(1, of: 2)])
    }

    func test_progressPassesThroughFailureRecoverAndAlways() {
        let root = Deferred<Int>()
        let received = Recorder<PromiseProgress>()
        root.promise
            .failure { _, _ in }
            .recover { _, _ in 0 }
            .always {}
            .progress { received.append($0) }
        root.report(7, of: 8)
        XCTAssertEqual(received.events, [progress(7, of: 8)])
    }

    func test_progressOfAPromiseReturnedByRecover_reachesTheChainedPromise() {
        let root = Deferred<Int>()
        let fallback = Deferred<Int>()
        let received = Recorder<PromiseProgress>()
        root.promise
            .recover { _, _ in fallback.promise }
            .progress { received.append($0) }
        root.reject(TestError.boom)
        fallback.report(4, of: 5)
        XCTAssertEqual(received.events, [progress(4, of: 5)])
    }
}
