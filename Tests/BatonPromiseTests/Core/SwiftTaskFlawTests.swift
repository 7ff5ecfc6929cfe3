@testable import BatonPromise
import TestSupport
import XCTest

/// Known flaws of SwiftTask, the library Baton replaces, that must not happen here.
final class SwiftTaskFlawTests: XCTestCase {
    func test_fulfilArrivingWhilePaused_isNotDropped() {
        let deferred = Deferred<Int>()
        let values = Recorder<Int>()
        deferred.promise.success { values.append($0) }
        deferred.promise.pause()
        deferred.fulfill(42)
        XCTAssertEqual(deferred.promise.state, .fulfilled)
        XCTAssertEqual(values.events, [42])
    }

    func test_cancelHandler_doesNotRunOnANormalFulfil() {
        let deferred = Deferred<Int>()
        deferred.fulfill(1)
        XCTAssertEqual(deferred.cancelCount, 0)
        deferred.promise.cancel()
        XCTAssertEqual(deferred.cancelCount, 0)
    }

    func test_droppingTheLastReferenceToAPendingPromise_doesNotCancelIt() {
        let values = Recorder<Int>()
        let work: WorkHandle<Int>
        do {
            let (promise, handle) = WorkHandle<Int>.makePending()
            work = handle
            promise.success { values.append($0) }
        }
        XCTAssertEqual(work.cancelCount.value, 0)
        work.fulfill(7)
        XCTAssertEqual(values.events, [7])
        XCTAssertEqual(work.cancelCount.value, 0)
    }

    func test_hundredThousandStepChain_settlesWithTheRightValue() {
        var last = Promise(value: 0)
        for _ in 0..<100_000 {
            last = last.success { $0 + 1 }
        }
        XCTAssertEqual(last.fulfilledValue, 100_000)
    }

    func test_tenThousandStepChainOnAPendingRoot_settlesWithoutOverflowingTheStack() {
        let root = Deferred<Int>()
        var last = root.promise
        for _ in 0..<10_000 {
            last = last.success { $0 + 1 }
        }
        root.fulfill(0)
        XCTAssertEqual(last.fulfilledValue, 10_000)
    }

    func test_progressReportedWhilePaused_isDeliveredOnResume_latestValueOnly() {
        let deferred = Deferred<Int>()
        let received = Recorder<Int64>()
        deferred.promise.progress { received.append($0.completed) }
        deferred.promise.pause()
        deferred.report(1)
        deferred.report(2)
        deferred.report(3)
        XCTAssertEqual(received.events, [])
        deferred.promise.resume()
        XCTAssertEqual(received.events, [3])
    }
}
