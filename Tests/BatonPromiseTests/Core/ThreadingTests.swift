@testable import BatonPromise
import Dispatch
import Foundation
import TestSupport
import XCTest

/// Settling and registering from many threads, re-entrant handlers, and a stress run.
final class ThreadingTests: XCTestCase {
    // MARK: Many threads at once

    func test_fulfilAndRejectFromManyThreadsAtOnce_settleOnce_andEachHandlerRunsOnce() {
        for _ in 0..<200 {
            let deferred = Deferred<Int>()
            let thenRuns = Counter()
            let alwaysRuns = Counter()
            deferred.promise.then { _ in thenRuns.increment() }
            deferred.promise.always { alwaysRuns.increment() }
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                if index.isMultiple(of: 2) {
                    deferred.fulfill(index)
                } else {
                    deferred.reject(TestError.step(index))
                }
            }
            XCTAssertEqual([thenRuns.value, alwaysRuns.value], [1, 1])
            XCTAssertEqual(deferred.cancelCount, 0)
            switch deferred.promise.result {
            case .success(let value)?: XCTAssertTrue(value.isMultiple(of: 2))
            case .failure(let error)?: XCTAssertNotNil(error as? TestError)
            case nil: XCTFail("not settled")
            }
        }
    }

    func test_cancelFromManyThreadsAtOnce_runsTheCancelHandlerOnce() {
        for _ in 0..<200 {
            let deferred = Deferred<Int>()
            let failures = Recorder<Bool>()
            deferred.promise.failure { _, isCancelled in failures.append(isCancelled) }
            DispatchQueue.concurrentPerform(iterations: 8) { _ in deferred.promise.cancel() }
            XCTAssertEqual(deferred.cancelCount, 1)
            XCTAssertEqual(failures.events, [true])
        }
    }

    func test_fulfilRejectAndCancelRacing_runTheCancelHandlerOnlyIfCancelled() {
        for _ in 0..<200 {
            let deferred = Deferred<Int>()
            let settled = Counter()
            deferred.promise.always { settled.increment() }
            DispatchQueue.concurrentPerform(iterations: 6) { index in
                switch index % 3 {
                case 0: deferred.fulfill(index)
                case 1: deferred.reject(TestError.step(index))
                default: deferred.promise.cancel()
                }
            }
            XCTAssertEqual(settled.value, 1)
            XCTAssertEqual(deferred.cancelCount, deferred.promise.state == .cancelled ? 1 : 0)
        }
    }

    func test_handlersAddedFromManyThreadsWhileAnotherSettles_eachRunExactlyOnce() {
        for _ in 0..<20 {
            let deferred = Deferred<Int>()
            let ran = Recorder<Int>()
            let settlingIndex = 250
            DispatchQueue.concurrentPerform(iterations: 500) { index in
                if index == settlingIndex {
                    deferred.fulfill(1)
                } else {
                    deferred.promise.always { ran.append(index) }
                }
            }
            // Every handler has run by now: one added before the fulfil ran on the settling
            // thread before fulfil returned; one added after ran before its registration returned.
            XCTAssertEqual(ran.events.sorted(), (0..<500).filter { $0 != settlingIndex })
        }
    }

    func test_handlersOfOnePromise_neverRunConcurrently() {
        let deferred = Deferred<Int>()
        let active = Counter()
        let overlaps = Counter()
        let deliveries = Counter()
        deferred.promise.progress { _ in
            if active.increment() != 1 { overlaps.increment() }
            deliveries.increment()
            for _ in 0..<100 { _ = deferred.promise.state }  // widen the window
            active.decrement()
        }
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for step in 0..<500 { deferred.report(Int64(thread * 1000 + step)) }
        }
        deferred.fulfill(0)
        XCTAssertEqual(overlaps.value, 0)
        XCTAssertGreaterThan(deliveries.value, 0)
    }

    func test_progressReportedFromManyThreads_neverArrivesAfterTheSettlementHandlersStarted() {
        for _ in 0..<50 {
            let deferred = Deferred<Int>()
            let log = Recorder<String>()
            deferred.promise.progress { _ in log.append("progress") }
            deferred.promise.always { log.append("settled") }
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for step in 0..<100 {
                    if thread == 0, step == 50 { deferred.fulfill(0) }
                    deferred.report(Int64(step))
                }
            }
            XCTAssertEqual(log.events.last, "settled")
            XCTAssertEqual(log.events.filter { $0 == "settled" }.count, 1)
        }
    }

    func test_cancelRacingTheStartOfTheNextStep_alwaysReachesTheStepThatStarted() {
        for _ in 0..<300 {
            let root = Deferred<Int>()
            let inners = Recorder<Deferred<Int>>()
            let last = root.promise.success { _ -> Promise<Int> in
                let inner = Deferred<Int>()
                inners.append(inner)
                return inner.promise
            }
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 { root.fulfill(1) } else { last.cancel() }
            }
            XCTAssertEqual(last.state, .cancelled)
            // Whichever work was running when the cancellation arrived was cancelled, once:
            // the root's if it had not fulfilled yet, the step's if the step had started (a
            // step that had not started by then never starts).
            XCTAssertEqual(root.cancelCount, root.promise.state == .cancelled ? 1 : 0)
            XCTAssertLessThanOrEqual(inners.count, 1)
            XCTAssertEqual(inners.events.map(\.cancelCount), inners.events.map { _ in 1 })
            XCTAssertEqual(inners.events.map(\.promise.state), inners.events.map { _ in .cancelled })
        }
    }

    func test_pauseRacingTheStartOfTheNextStep_alwaysReachesTheStepThatStarted() {
        for _ in 0..<300 {
            let root = Deferred<Int>()
            let inners = Recorder<Deferred<Int>>()
            let last = root.promise.success { _ -> Promise<Int> in
                let inner = Deferred<Int>()
                inners.append(inner)
                return inner.promise
            }
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 { root.fulfill(1) } else { last.pause() }
            }
            XCTAssertEqual(last.state, .paused)
            XCTAssertEqual(inners.count, 1)
            XCTAssertEqual(inners.events.map(\.pauseCount), [1])
            XCTAssertEqual(inners.events.map(\.promise.state), [.paused])
        }
    }

    // MARK: Handlers calling back into promises

    func test_handlerCallingBackIntoItsOwnPromise_doesNotDeadlock() {
        let deferred = Deferred<Int>()
        let log = Recorder<String>()
        deferred.promise.always {
            log.append("outer sees \(deferred.promise.state)")
            deferred.promise.always { log.append("inner") }
            deferred.promise.cancel()
            deferred.promise.pause()
            deferred.promise.resume()
            log.append("outer sees result \(deferred.promise.result?.value ?? -1)")
        }
        let returned = runOnNewThread(timeout: 30) { deferred.fulfill(3) }
        XCTAssertTrue(returned, "fulfil did not return: deadlock")
        XCTAssertEqual(log.events, ["outer sees fulfilled", "outer sees result 3", "inner"])
    }

    func test_progressHandlerCancellingItsOwnPendingPromise_doesNotDeadlock() {
        let deferred = Deferred<Int>()
        let log = Recorder<String>()
        deferred.promise.progress { _ in
            log.append("progress")
            deferred.promise.cancel()
            log.append("after cancel: \(deferred.promise.state)")
        }
        deferred.promise.failure { _, isCancelled in log.append("failure, cancelled: \(isCancelled)") }
        let returned = runOnNewThread(timeout: 30) { deferred.report(1) }
        XCTAssertTrue(returned, "report did not return: deadlock")
        XCTAssertEqual(log.events, ["progress", "after cancel: cancelled", "failure, cancelled: true"])
        XCTAssertEqual(deferred.cancelCount, 1)
    }

    func test_cancelHandlerCallingBackIntoItsPromise_doesNotDeadlock() {
        let deferred = Deferred<Int>()
        let log = Recorder<String>()
        deferred.work.configuration.cancel = {
            log.append("cancel handler sees \(deferred.promise.state)")
            deferred.promise.always { log.append("always") }
            deferred.promise.cancel()
        }
        let returned = runOnNewThread(timeout: 30) { deferred.promise.cancel() }
        XCTAssertTrue(returned, "cancel did not return: deadlock")
        XCTAssertEqual(log.events, ["cancel handler sees cancelled", "always"])
    }

    func test_pauseAndResumeHandlersCallingBackIntoTheirPromise_doNotDeadlock() {
        let deferred = Deferred<Int>()
        let log = Recorder<String>()
        deferred.work.configuration.pause = {
            log.append("pause handler sees \(deferred.promise.state)")
            deferred.promise.pause()
        }
        deferred.work.configuration.resume = {
            log.append("resume handler sees \(deferred.promise.state)")
            deferred.promise.resume()
        }
        let returned = runOnNewThread(timeout: 30) {
            deferred.promise.pause()
            deferred.promise.resume()
        }
        XCTAssertTrue(returned, "pause or resume did not return: deadlock")
        XCTAssertEqual(log.events, ["pause handler sees paused", "resume handler sees running"])
    }

    func test_handlerSettlingAnotherPromiseWhoseHandlerReadsTheFirst_doesNotDeadlock() {
        let first = Deferred<Int>()
        let second = Deferred<Int>()
        let log = Recorder<String>()
        second.promise.always { log.append("second's handler sees first \(first.promise.state)") }
        first.promise.always {
            second.fulfill(2)
            log.append("first's handler done")
        }
        let returned = runOnNewThread(timeout: 30) { first.fulfill(1) }
        XCTAssertTrue(returned, "fulfil did not return: deadlock")
        XCTAssertEqual(Set(log.events), ["second's handler sees first fulfilled", "first's handler done"])
    }

    // MARK: Stress

    func test_stress_tenThousandPromisesSettledAndObservedFromManyThreads_eachHandlerRunsOnce() {
        let count = 10_000
        let adders = 4
        let settlers = 4
        let promises = (0..<count).map { _ in Deferred<Int>() }
        let runs = (0..<count).map { _ in Counter() }
        DispatchQueue.concurrentPerform(iterations: adders + settlers) { worker in
            if worker < settlers {
                for index in stride(from: worker, to: count, by: settlers) {
                    switch index % 3 {
                    case 0: promises[index].fulfill(index)
                    case 1: promises[index].reject(TestError.step(index))
                    default: promises[index].promise.cancel()
                    }
                }
            } else {
                let adder = worker - settlers
                for index in 0..<count {
                    let promise = promises[(index + adder * count / adders) % count].promise
                    let counter = runs[(index + adder * count / adders) % count]
                    if adder.isMultiple(of: 2) {
                        promise.then { _ in counter.increment() }
                    } else {
                        promise.always { counter.increment() }
                    }
                }
            }
        }
        XCTAssertEqual(runs.filter { $0.value != adders }.count, 0, "promises whose handlers did not each run once")
        let expectedStates = (0..<count).map { [PromiseState.fulfilled, .rejected, .cancelled][$0 % 3] }
        XCTAssertEqual(promises.map(\.promise.state), expectedStates)
        XCTAssertEqual(
            promises.indices.filter { promises[$0].cancelCount != ($0 % 3 == 2 ? 1 : 0) }.count, 0,
            "promises whose cancel handler did not run exactly once when cancelled (never otherwise)"
        )
    }
}
