@testable import BatonPromise
import TestSupport
import XCTest

/// Lifetimes: settled chains are freed, pending work keeps its promise alive, abandoned work rejects.
final class MemoryTests: XCTestCase {
    func test_settledChain_freesEveryPromiseAndEveryClosureOnceLetGo() {
        weak var weakRoot: Promise<Int>?
        weak var weakMiddle: Promise<String>?
        weak var weakInner: Promise<String>?
        weak var weakLast: Promise<String>?
        weak var weakCaptured: Token?
        weak var weakConfigurationCapture: Token?
        do {
            let captured = Token(1)
            let configurationCapture = Token(2)
            let (root, work) = WorkHandle<Int>.makePending()
            work.configuration.cancel = { _ = configurationCapture }
            let inner = Deferred<String>()
            let middle = root.success { "\($0 + captured.id)" }
            let last = middle
                .success { _ in inner.promise }
                .progress { _ in _ = captured }
                .failure { _, _ in _ = captured }
                .always { _ = captured }
            weakRoot = root
            weakMiddle = middle
            weakInner = inner.promise
            weakLast = last
            weakCaptured = captured
            weakConfigurationCapture = configurationCapture
            work.fulfill(1)
            inner.report(1, of: 1)
            inner.fulfill("done")
            XCTAssertEqual(last.fulfilledValue, "done")
        }
        XCTAssertNil(weakRoot)
        XCTAssertNil(weakMiddle)
        XCTAssertNil(weakInner)
        XCTAssertNil(weakLast)
        XCTAssertNil(weakCaptured)
        XCTAssertNil(weakConfigurationCapture)
    }

    func test_rejectedChain_freesEveryPromiseOnceLetGo() {
        weak var weakRoot: Promise<Int>?
        weak var weakLast: Promise<Int>?
        weak var weakCaptured: Token?
        do {
            let captured = Token()
            let (root, work) = WorkHandle<Int>.makePending()
            let last = root.success { $0 + captured.id }.recover { _, _ in captured.id }
            weakRoot = root
            weakLast = last
            weakCaptured = captured
            work.reject(TestError.boom)
            XCTAssertEqual(last.fulfilledValue, 0)
        }
        XCTAssertNil(weakRoot)
        XCTAssertNil(weakLast)
        XCTAssertNil(weakCaptured)
    }

    func test_cancelledChain_freesEveryPromiseAndTheCancelHandlerOnceLetGo() {
        weak var weakRoot: Promise<Int>?
        weak var weakLast: Promise<Int>?
        weak var weakCaptured: Token?
        do {
            let captured = Token()
            let (root, work) = WorkHandle<Int>.makePending()
            work.configuration.cancel = { _ = captured }
            let last = root.success { $0 + 1 }.success { $0 + captured.id }
            weakRoot = root
            weakLast = last
            weakCaptured = captured
            last.cancel()
            XCTAssertEqual(last.state, .cancelled)
        }
        XCTAssertNil(weakRoot)
        XCTAssertNil(weakLast)
        XCTAssertNil(weakCaptured)
    }

    func test_settledPromiseStillReferenced_releasesItsHandlerAndConfigurationClosures() {
        let deferred = Deferred<Int>()
        weak var weakHandlerCapture: Token?
        weak var weakConfigurationCapture: Token?
        do {
            let handlerCapture = Token()
            let configurationCapture = Token()
            deferred.promise.success { _ in _ = handlerCapture }
            deferred.work.configuration.pause = { _ = configurationCapture }
            weakHandlerCapture = handlerCapture
            weakConfigurationCapture = configurationCapture
        }
        XCTAssertNotNil(weakHandlerCapture)
        XCTAssertNotNil(weakConfigurationCapture)
        deferred.fulfill(1)
        XCTAssertNil(weakHandlerCapture)
        XCTAssertNil(weakConfigurationCapture)
        XCTAssertEqual(deferred.promise.state, .fulfilled)  // still referenced here
    }

    func test_pendingChain_staysAliveWhileItsWorkHoldsFulfil_andFulfillingRunsItsHandlers() {
        weak var weakRoot: Promise<Int>?
        weak var weakLast: Promise<Int>?
        let values = Recorder<Int>()
        let work: WorkHandle<Int>
        do {
            let (root, handle) = WorkHandle<Int>.makePending()
            work = handle
            let last = root.success { $0 * 2 }.success { $0 + 1 }
            last.success { values.append($0) }
            weakRoot = root
            weakLast = last
        }
        XCTAssertNotNil(weakRoot)
        XCTAssertNotNil(weakLast)
        XCTAssertEqual(weakLast?.state, .running)
        work.fulfill(5)
        XCTAssertEqual(values.events, [11])
        XCTAssertEqual(work.cancelCount.value, 0)
    }

    func test_pendingChain_isFreedOnceItsWorkFulfilsAndLetsGo() {
        weak var weakLast: Promise<Int>?
        do {
            let (root, work) = WorkHandle<Int>.makePending()
            weakLast = root.success { $0 + 1 }
            XCTAssertNotNil(weakLast)
            work.fulfill(1)
        }
        XCTAssertNil(weakLast)
    }

    func test_workReleasingItsCallbacksWithoutSettling_rejectsWithAbandoned() {
        let deferred = Deferred<Int>()
        let seen = Recorder<String>()
        deferred.promise.failure { error, isCancelled in
            seen.append("\(error is PromiseError) \(isCancelled)")
        }
        deferred.work.releaseCallbacks()
        XCTAssertEqual(deferred.promise.state, .rejected)
        XCTAssertAbandoned(deferred.promise.failureError)
        XCTAssertEqual(seen.events, ["true false"])
        XCTAssertEqual(deferred.cancelCount, 0)
    }

    func test_workThatNeverKeepsItsCallbacks_rejectsWithAbandonedAtOnce() {
        let promise = Promise<Int> { _, _, _, _ in }
        XCTAssertEqual(promise.state, .rejected)
        XCTAssertAbandoned(promise.failureError)
    }

    func test_workKeepingOnlyItsProgressCallback_rejectsWithAbandoned() {
        // Documented: "the fulfil and reject callbacks own it ... If the work releases both
        // callbacks without calling either, the promise rejects with PromiseError.abandoned".
        // Work that still reports progress but can no longer settle must not leave the promise
        // pending forever.
        let progressCallbacks = Recorder<@Sendable (PromiseProgress) -> Void>()
        let promise = Promise<Int> { progress, _, _, _ in progressCallbacks.append(progress) }
        XCTAssertEqual(progressCallbacks.count, 1)
        XCTAssertEqual(promise.state, .rejected)
        XCTAssertAbandoned(promise.failureError)
    }

    func test_abandonedRoot_rejectsEveryStepOfItsChainWithAbandoned() {
        let seen = Recorder<String>()
        let (root, work) = WorkHandle<Int>.makePending()
        let last = root.success { $0 + 1 }.success { $0 * 2 }
        last.failure { error, _ in seen.append("\(error)") }
        work.releaseCallbacks()
        XCTAssertAbandoned(last.failureError)
        XCTAssertEqual(seen.events, ["\(PromiseError.abandoned)"])
    }

    func test_abandonedChain_isFreedOnceLetGo() {
        weak var weakRoot: Promise<Int>?
        weak var weakLast: Promise<Int>?
        do {
            let (root, work) = WorkHandle<Int>.makePending()
            let last = root.success { $0 + 1 }
            weakRoot = root
            weakLast = last
            work.releaseCallbacks()
            XCTAssertAbandoned(last.failureError)
        }
        XCTAssertNil(weakRoot)
        XCTAssertNil(weakLast)
    }

    func test_settledCombinators_freeThemselvesAndTheirInputsOnceLetGo() {
        weak var weakInput: Promise<Int>?
        weak var weakAll: Promise<[Int]>?
        weak var weakRace: Promise<Int>?
        weak var weakAny: Promise<Int>?
        weak var weakZip: Promise<(Int, String)>?
        do {
            let inputs = (0..<6).map { _ in Deferred<Int>() }
            let text = Deferred<String>()
            let all = Promise.all([inputs[0].promise, inputs[1].promise])
            let race = Promise.race([inputs[2].promise, inputs[3].promise])
            let any = Promise.any([inputs[4].promise, inputs[5].promise])
            let zip = Promise.zip(inputs[0].promise, text.promise)
            weakInput = inputs[0].promise
            weakAll = all
            weakRace = race
            weakAny = any
            weakZip = zip
            inputs[0].fulfill(0)
            inputs[1].fulfill(1)
            inputs[2].fulfill(2)  // race cancels input 3
            inputs[5].fulfill(5)  // any cancels input 4
            text.fulfill("text")
            XCTAssertEqual(all.fulfilledValue, [0, 1])
            XCTAssertEqual(race.fulfilledValue, 2)
            XCTAssertEqual(any.fulfilledValue, 5)
            XCTAssertEqual(zip.fulfilledValue?.1, "text")
        }
        XCTAssertNil(weakInput)
        XCTAssertNil(weakAll)
        XCTAssertNil(weakRace)
        XCTAssertNil(weakAny)
        XCTAssertNil(weakZip)
    }

    func test_settledTimeout_freesBothPromisesOnceLetGo() {
        weak var weakOriginal: Promise<Int>?
        weak var weakLimited: Promise<Int>?
        do {
            let original = Deferred<Int>()
            let limited = original.promise.timeout(after: .seconds(60))
            weakOriginal = original.promise
            weakLimited = limited
            original.fulfill(1)
            XCTAssertEqual(limited.fulfilledValue, 1)
        }
        XCTAssertNil(weakOriginal)
        XCTAssertNil(weakLimited)
    }
}
