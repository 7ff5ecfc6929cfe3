@testable import BatonPromise
import Dispatch
import Foundation
import TestSupport
import XCTest

/// Where handlers run: on the settling thread, on the registering thread, or on a named queue.
final class HandlerThreadTests: XCTestCase {
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
        XCTAssertEqual(entered.wait(timeout: .now() + 30), .success)
        deferred.promise.always {
            lateHandlerThreads.append(currentThreadID())
            log.append("late")
        }
        log.append("registered")
        proceed.signal()
        XCTAssertEqual(finished.wait(timeout: .now() + 30), .success)
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
        wait(for: [done], timeout: 30)
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
        wait(for: [done], timeout: 30)
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
        wait(for: [done], timeout: 30)
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
        wait(for: [done], timeout: 30)
        XCTAssertEqual(ran.value, 1)
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
