@testable import BatonPromise
import TestSupport
import XCTest

/// Making promises: from a work closure, from a value or an error, from an async closure.
final class CreationTests: XCTestCase {
    func test_workClosure_runsOnTheCallingThreadBeforeInitReturns() {
        let log = Recorder<String>()
        let callerThread = currentThreadID()
        let workThread = Recorder<UInt>()
        _ = Promise<Int> { _, fulfill, _, _ in
            workThread.append(currentThreadID())
            log.append("work")
            fulfill(1)
        }
        log.append("init returned")
        XCTAssertEqual(log.events, ["work", "init returned"])
        XCTAssertEqual(workThread.events, [callerThread])
    }

    func test_progressCallback_reachesProgressHandlers() {
        let reports = Recorder<@Sendable (PromiseProgress) -> Void>()
        let fulfils = Recorder<@Sendable (Int) -> Void>()
        let promise = Promise<Int> { progress, fulfill, _, _ in
            reports.append(progress)
            fulfils.append(fulfill)
        }
        let received = Recorder<PromiseProgress>()
        promise.progress { received.append($0) }
        reports.events[0](progress(1, of: 4))
        reports.events[0](progress(2, of: 4))
        XCTAssertEqual(received.events, [progress(1, of: 4), progress(2, of: 4)])
        XCTAssertEqual(promise.state, .running)
    }

    func test_configuration_pauseResumeAndCancelHandlersAreSettableAndRun() {
        let log = Recorder<String>()
        let fulfils = Recorder<@Sendable (Int) -> Void>()
        let promise = Promise<Int> { _, fulfill, _, configure in
            fulfils.append(fulfill)  // keeps the promise pending
            configure.pause = { log.append("pause") }
            configure.resume = { log.append("resume") }
            configure.cancel = { log.append("cancel") }
        }
        promise.pause()
        promise.resume()
        promise.cancel()
        XCTAssertEqual(log.events, ["pause", "resume", "cancel"])
        XCTAssertEqual(promise.state, .cancelled)
    }

    func test_configuration_handlersCanBeReadBackAfterBeingSet() {
        let deferred = Deferred<Int>()
        XCTAssertNotNil(deferred.work.configuration.pause)
        XCTAssertNotNil(deferred.work.configuration.resume)
        XCTAssertNotNil(deferred.work.configuration.cancel)
        deferred.work.configuration.pause = nil
        XCTAssertNil(deferred.work.configuration.pause)
        deferred.promise.pause()
        XCTAssertEqual(deferred.pauseCount, 0)
        XCTAssertEqual(deferred.promise.state, .paused)
    }

    func test_fulfilInsideWork_fulfilsWithThatValue() {
        let promise = Promise<Int> { _, fulfill, _, _ in fulfill(7) }
        XCTAssertEqual(promise.state, .fulfilled)
        XCTAssertEqual(promise.fulfilledValue, 7)
    }

    func test_rejectInsideWork_rejectsWithThatError() {
        let promise = Promise<Int> { _, _, reject, _ in reject(TestError.boom) }
        XCTAssertEqual(promise.state, .rejected)
        XCTAssertTestError(promise.failureError, .boom)
    }

    func test_fulfilFromAnotherThread_fulfils() {
        let deferred = Deferred<String>()
        XCTAssertEqual(deferred.promise.state, .running)
        runOnNewThread { deferred.fulfill("from a thread") }
        XCTAssertEqual(deferred.promise.fulfilledValue, "from a thread")
    }

    func test_errorThrownByWork_rejectsWithThatError() {
        let thrown = IdentifiedError()
        let promise = Promise<Int> { _, _, _, _ in throw thrown }
        XCTAssertEqual(promise.state, .rejected)
        XCTAssertTrue(promise.failureError as? IdentifiedError === thrown)
    }

    func test_errorThrownByWorkAfterFulfilling_isIgnored() {
        let promise = Promise<Int> { _, fulfill, _, _ in
            fulfill(3)
            throw TestError.boom
        }
        XCTAssertEqual(promise.state, .fulfilled)
        XCTAssertEqual(promise.fulfilledValue, 3)
    }

    func test_cancellationErrorThrownByWork_settlesAsCancelled() {
        let promise = Promise<Int> { _, _, _, _ in throw CancellationError() }
        XCTAssertEqual(promise.state, .cancelled)
        XCTAssertCancellation(promise.failureError)
    }

    func test_initWithValue_isFulfilledAtOnce() {
        let promise = Promise(value: "ready")
        XCTAssertEqual(promise.state, .fulfilled)
        XCTAssertEqual(promise.fulfilledValue, "ready")
    }

    func test_initWithError_isRejectedAtOnce() {
        let promise = Promise<Int>(error: TestError.step(4))
        XCTAssertEqual(promise.state, .rejected)
        XCTAssertTestError(promise.failureError, .step(4))
    }

    func test_initWithCancellationError_isCancelled() {
        let promise = Promise<Int>(error: CancellationError())
        XCTAssertEqual(promise.state, .cancelled)
        XCTAssertCancellation(promise.failureError)
    }

    func test_asyncClosure_fulfilsWithTheReturnedValue() async throws {
        let promise = Promise<Int> {
            await Task.yield()
            return 42
        }
        let value = try await promise.value
        XCTAssertEqual(value, 42)
        XCTAssertEqual(promise.state, .fulfilled)
    }

    func test_asyncClosure_thatThrows_rejectsWithThatError() async {
        let promise = Promise<Int> {
            await Task.yield()
            throw TestError.step(9)
        }
        do {
            _ = try await promise.value
            XCTFail("expected a rejection")
        } catch {
            XCTAssertTestError(error, .step(9))
        }
        XCTAssertEqual(promise.state, .rejected)
    }

    func test_asyncClosure_throwingCancellationError_settlesAsCancelled() async {
        let promise = Promise<Int> { throw CancellationError() }
        do {
            _ = try await promise.value
            XCTFail("expected a cancellation")
        } catch {
            XCTAssertCancellation(error)
        }
        XCTAssertEqual(promise.state, .cancelled)
    }

    func test_asyncClosure_runsAtTheGivenPriority() async throws {
        let promise = Promise<TaskPriority>(priority: .low) { Task.currentPriority }
        let priority = try await promise.value
        XCTAssertEqual(priority, .low)
    }
}
