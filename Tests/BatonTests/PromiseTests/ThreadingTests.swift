import Baton
import Dispatch
import Foundation
import XCTest

/// Settling and registering from many threads, re-entrant handlers, and where handlers run.
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
        let returned = runOnNewThread(timeout: 5) { deferred.fulfill(3) }
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
        let returned = runOnNewThread(timeout: 5) { deferred.report(1) }
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
        let returned = runOnNewThread(timeout: 5) { deferred.promise.cancel() }
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
        let returned = runOnNewThread(timeout: 5) {
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
        let returned = runOnNewThread(timeout: 5) { first.fulfill(1) }
        XCTAssertTrue(returned, "fulfil did not return: deadlock")
        XCTAssertEqual(Set(log.events), ["second's handler sees first fulfilled", "first's handler done"])
    }

    // MARK: Where handlers run

    func test_handlerWithoutAQueue_runsOnTheFulfillingThread() {
        let deferred = Deferred<Int>()
        let handlerThreads = Recorder<UInt>()
        deferred.promise.success { _ in handlerThreads.append(currentThreadID()) }
        let fulfillingThread = Recorder<UInt>()
        runOnNewThread {
            fulfillingThread.append(currentThreadID())
            deferred.fulfill(1)
        }
        XCTAssertEqual(handlerThreads.events, fulfillingThread.events)
        XCTAssertNotEqual(handlerThreads.events, [currentThreadID()])
    }

    func test_handlerWithoutAQueue_runsOnTheRejectingThread() {
        let deferred = Deferred<Int>()
        let handlerThreads = Recorder<UInt>()
        deferred.promise.failure { _, _ in handlerThreads.append(currentThreadID()) }
        let rejectingThread = Recorder<UInt>()
        runOnNewThread {
            rejectingThread.append(currentThreadID())
            deferred.reject(TestError.boom)
        }
        XCTAssertEqual(handlerThreads.events, rejectingThread.events)
    }

    func test_handlersAndCancelHandler_runOnTheCancellingThread() {
        let deferred = Deferred<Int>()
        let threads = Recorder<UInt>()
        deferred.work.configuration.cancel = { threads.append(currentThreadID()) }
        deferred.promise.failure { _, _ in threads.append(currentThreadID()) }
        let cancellingThread = Recorder<UInt>()
        runOnNewThread {
            cancellingThread.append(currentThreadID())
            deferred.promise.cancel()
        }
        XCTAssertEqual(threads.events, [cancellingThread.events[0], cancellingThread.events[0]])
    }

    func test_pauseAndResumeHandlers_runOnTheCallingThread() {
        let deferred = Deferred<Int>()
        let threads = Recorder<UInt>()
        deferred.work.configuration.pause = { threads.append(currentThreadID()) }
        deferred.work.configuration.resume = { threads.append(currentThreadID()) }
        let callingThread = Recorder<UInt>()
        runOnNewThread {
            callingThread.append(currentThreadID())
            deferred.promise.pause()
            deferred.promise.resume()
        }
        XCTAssertEqual(threads.events, [callingThread.events[0], callingThread.events[0]])
    }

    func test_stepsOfAChain_runOnTheThreadThatSettledTheRoot() {
        let root = Deferred<Int>()
        let threads = Recorder<UInt>()
        root.promise
            .success { value -> Int in
                threads.append(currentThreadID())
                return value
            }
            .success { _ -> Promise<Int> in
                threads.append(currentThreadID())
                return Promise(value: 1)
            }
            .always { threads.append(currentThreadID()) }
        let settlingThread = Recorder<UInt>()
        runOnNewThread {
            settlingThread.append(currentThreadID())
            root.fulfill(0)
        }
        XCTAssertEqual(threads.events, Array(repeating: settlingThread.events[0], count: 3))
    }

    func test_handlerAddedAfterSettling_runsOnTheAddingThread_beforeTheRegistrationReturns() {
        let deferred = Deferred<Int>()
        deferred.fulfill(1)
        let log = Recorder<String>()
        let handlerThreads = Recorder<UInt>()
        let addingThread = Recorder<UInt>()
        runOnNewThread {
            addingThread.append(currentThreadID())
            deferred.promise.success { _ in
                handlerThreads.append(currentThreadID())
                log.append("handler")
            }
            log.append("registration returned")
        }
        XCTAssertEqual(log.events, ["handler", "registration returned"])
        XCTAssertEqual(handlerThreads.events, addingThread.events)
    }

    func test_handlerAddedToASettledPromiseFromInsideDeepChainSteps_runsOnThatThreadBeforeTheOutermostFulfilReturns() {
        // Documented: from inside a handler nested deeper than the delivery loop allows, a handler
        // added to a settled promise runs on the same thread once the outermost delivery gets to
        // it, before the outermost fulfil returns. (Shallower, it runs before registration returns.)
        let settled = Promise(value: "settled")
        let root = Deferred<Int>()
        let fulfillingThread = currentThreadID()
        let ranOnThreads = Recorder<UInt>()
        let ranBeforeRegistrationReturned = Counter()
        var last = root.promise
        for _ in 0..<100 {
            last = last.success { value -> Int in
                let ran = Counter()
                settled.success { _ in
                    ran.increment()
                    ranOnThreads.append(currentThreadID())
                }
                if ran.value == 1 { ranBeforeRegistrationReturned.increment() }
                return value + 1
            }
        }
        root.fulfill(0)
        XCTAssertEqual(last.fulfilledValue, 100)
        XCTAssertEqual(ranOnThreads.events, Array(repeating: fulfillingThread, count: 100))
        XCTAssertGreaterThanOrEqual(ranBeforeRegistrationReturned.value, 90, "most steps are shallow enough to run it at once")
    }

    func test_handlerAddedWhileAnotherThreadDelivers_runsOnTheDeliveringThreadAfterTheEarlierOnes() {
        let deferred = Deferred<Int>()
        let entered = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let log = Recorder<String>()
        let lateHandlerThreads = Recorder<UInt>()
        deferred.promise.always {
            entered.signal()
            proceed.wait()
            log.append("first")
        }
        let deliveringThread = Recorder<UInt>()
        let finished = DispatchSemaphore(value: 0)
        Thread {
            deliveringThread.append(currentThreadID())
            deferred.fulfill(1)
            finished.signal()
        }.start()
        XCTAssertEqual(entered.wait(timeout: .now() + 5), .success)
        deferred.promise.always {
            lateHandlerThreads.append(currentThreadID())
            log.append("late")
        }
        log.append("registered")
        proceed.signal()
        XCTAssertEqual(finished.wait(timeout: .now() + 5), .success)
        XCTAssertEqual(log.events, ["registered", "first", "late"])
        XCTAssertEqual(lateHandlerThreads.events, deliveringThread.events)
    }

    func test_handlersWithAQueue_runOnThatQueue() {
        let key = QueueKey()
        let queue = key.makeQueue("handlers")
        let deferred = Deferred<Int>()
        let seen = Recorder<String>()
        let done = expectation(description: "handlers ran")
        done.expectedFulfillmentCount = 4
        deferred.promise.progress(on: queue) { _ in
            seen.append("progress on \(key.currentQueueName)")
            done.fulfill()
        }
        deferred.promise.then(on: queue) { _ in
            seen.append("then on \(key.currentQueueName)")
            done.fulfill()
        }
        deferred.promise.success(on: queue) { _ in
            seen.append("success on \(key.currentQueueName)")
            done.fulfill()
        }
        deferred.promise.always(on: queue) {
            seen.append("always on \(key.currentQueueName)")
            done.fulfill()
        }
        deferred.report(1)
        deferred.fulfill(1)
        wait(for: [done], timeout: 5)
        XCTAssertEqual(seen.events, [
            "progress on handlers", "then on handlers", "success on handlers", "always on handlers",
        ])
    }

    func test_failureAndRecoverWithAQueue_runOnThatQueue() {
        let key = QueueKey()
        let queue = key.makeQueue("errors")
        let deferred = Deferred<Int>()
        let seen = Recorder<String>()
        let done = expectation(description: "recovered promise settled")
        let recovered = deferred.promise
            .failure(on: queue) { _, _ in seen.append("failure on \(key.currentQueueName)") }
            .recover(on: queue) { _, _ in
                seen.append("recover on \(key.currentQueueName)")
                return 5
            }
        recovered.always { done.fulfill() }
        deferred.reject(TestError.boom)
        wait(for: [done], timeout: 5)
        XCTAssertEqual(seen.events, ["failure on errors", "recover on errors"])
        XCTAssertEqual(recovered.fulfilledValue, 5)
    }

    func test_handlerWithAQueue_addedAfterSettling_runsOnThatQueue() {
        let key = QueueKey()
        let queue = key.makeQueue("late")
        let deferred = Deferred<Int>()
        deferred.fulfill(1)
        let seen = Recorder<String>()
        let done = expectation(description: "handler ran")
        deferred.promise.success(on: queue) { _ in
            seen.append("success on \(key.currentQueueName)")
            done.fulfill()
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(seen.events, ["success on late"])
    }

    func test_handlerWithAQueue_doesNotRunOnTheSettlingThread() {
        let key = QueueKey()
        let queue = key.makeQueue("async")
        let deferred = Deferred<Int>()
        let blocker = DispatchSemaphore(value: 0)
        queue.async { blocker.wait() }  // hold the queue so the handler cannot run yet
        let ran = Counter()
        let done = expectation(description: "handler ran")
        deferred.promise.success(on: queue) { _ in
            ran.increment()
            done.fulfill()
        }
        deferred.fulfill(1)
        XCTAssertEqual(ran.value, 0)  // fulfil returned without running it
        blocker.signal()
        wait(for: [done], timeout: 5)
        XCTAssertEqual(ran.value, 1)
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

/// Names dispatch queues through `setSpecific`, so a handler can tell which queue it runs on.
private final class QueueKey: @unchecked Sendable {
    // DispatchSpecificKey is immutable after creation and safe to share; it is not marked Sendable.
    private let key = DispatchSpecificKey<String>()

    func makeQueue(_ name: String) -> DispatchQueue {
        let queue = DispatchQueue(label: "baton.tests.\(name)")
        queue.setSpecific(key: key, value: name)
        return queue
    }

    var currentQueueName: String {
        DispatchQueue.getSpecific(key: key) ?? "no queue"
    }
}
