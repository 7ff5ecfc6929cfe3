@testable import BatonPromise
import Dispatch
import TestSupport
import XCTest

/// Promise.all, any, allSettled, zip and race.
final class CombinatorTests: XCTestCase {
    private func deferreds(_ count: Int) -> [Deferred<Int>] {
        (0..<count).map { Deferred<Int>("input \($0)") }
    }

    // MARK: all

    func test_all_fulfilsWithTheValuesInInputOrder_whenTheyFulfilOutOfOrder() {
        let inputs = deferreds(3)
        let combined = Promise.all(inputs.map(\.promise))
        inputs[2].fulfill(30)
        inputs[0].fulfill(10)
        XCTAssertEqual(combined.state, .running)
        inputs[1].fulfill(20)
        XCTAssertEqual(combined.fulfilledValue, [10, 20, 30])
    }

    func test_all_firstRejection_rejectsWithItAndCancelsTheInputsStillPending() {
        let inputs = deferreds(4)
        let combined = Promise.all(inputs.map(\.promise))
        inputs[0].fulfill(1)
        inputs[2].reject(TestError.step(2))
        inputs[3].reject(TestError.step(3))  // too late: already cancelled
        XCTAssertTestError(combined.failureError, .step(2))
        XCTAssertEqual(inputs.map(\.cancelCount), [0, 1, 0, 1])
        XCTAssertEqual(inputs.map(\.promise.state), [.fulfilled, .cancelled, .rejected, .cancelled])
    }

    func test_all_reportsProgressAsFulfilledInputsOutOfTotal() {
        let inputs = deferreds(3)
        let received = Recorder<PromiseProgress>()
        let combined = Promise.all(inputs.map(\.promise)).progress { received.append($0) }
        inputs[1].fulfill(1)
        inputs[0].fulfill(0)
        inputs[2].fulfill(2)
        XCTAssertEqual(received.events, [progress(1, of: 3), progress(2, of: 3), progress(3, of: 3)])
        XCTAssertEqual(combined.fulfilledValue, [0, 1, 2])
    }

    /// Inputs fulfilled from eight threads at once: each count is reported after its own tally,
    /// so reports can cross; the combined promise drops one that would go backwards.
    func test_all_progressNeverGoesBackward_whenInputsFulfilOnManyThreads() {
        let inputs = deferreds(2000)
        let combined = Promise.all(inputs.map(\.promise))
        let completed = Recorder<Int64>()
        combined.progress { completed.append($0.completed) }
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in stride(from: thread, to: inputs.count, by: 8) { inputs[index].fulfill(index) }
        }
        XCTAssertEqual(combined.fulfilledValue, Array(0..<2000))
        let counts = completed.events
        XCTAssertTrue(zip(counts, counts.dropFirst()).allSatisfy { $0 < $1 }, "progress went backwards: \(counts)")
        XCTAssertEqual(counts.last, 2000)
    }

    func test_all_overInputsReportingBytes_reportsTheBytesSummed() {
        let inputs = [Deferred<Int>(), Deferred<Int>(), Deferred<Int>()]
        let combined = Promise.all(inputs.map(\.promise))
        let reported = Recorder<PromiseProgress>()
        combined.progress { reported.append($0) }

        inputs[0].promise.report(PromiseProgress(completed: 100, total: 1000, kind: .bytesSent))
        inputs[1].promise.report(PromiseProgress(completed: 50, total: 500, kind: .bytesSent))
        inputs[2].promise.report(PromiseProgress(completed: 0, total: 2000, kind: .bytesSent))
        inputs[0].promise.report(PromiseProgress(completed: 1000, total: 1000, kind: .bytesSent))
        // The first input's response: bytes of another kind, left out of the sum.
        inputs[0].promise.report(PromiseProgress(completed: 40, total: 40, kind: .bytesReceived))
        inputs[0].fulfill(0)
        inputs[1].fulfill(1)
        inputs[2].fulfill(2)

        // A report that does not advance the bytes completed is dropped, as for any combinator.
        XCTAssertEqual(reported.events, [
            PromiseProgress(completed: 100, total: nil, kind: .bytesSent),
            PromiseProgress(completed: 150, total: nil, kind: .bytesSent),
            PromiseProgress(completed: 1050, total: 3500, kind: .bytesSent),
            PromiseProgress(completed: 1500, total: 3500, kind: .bytesSent),
            PromiseProgress(completed: 3500, total: 3500, kind: .bytesSent),
        ])
    }

    func test_all_overInputsReportingNoBytes_stillCountsThem() {
        let inputs = [Deferred<Int>(), Deferred<Int>()]
        let combined = Promise.all(inputs.map(\.promise))
        let reported = Recorder<PromiseProgress>()
        combined.progress { reported.append($0) }
        inputs[0].report(5, of: 10)
        inputs[0].fulfill(0)
        inputs[1].fulfill(1)
        XCTAssertEqual(reported.events, [PromiseProgress(completed: 1, total: 2), PromiseProgress(completed: 2, total: 2)])
    }

    /// What the combinators rely on, without the race: a report that does not advance past the
    /// newest accepted one is dropped.
    func test_reportOnlyForward_dropsAReportThatDoesNotAdvance() {
        let work = Deferred<Int>()
        let completed = Recorder<Int64>()
        work.promise.progress { completed.append($0.completed) }
        for count: Int64 in [2, 1, 2, 3] {
            work.promise.report(PromiseProgress(completed: count, total: 3), onlyForward: true)
        }
        XCTAssertEqual(completed.events, [2, 3])
    }

    func test_all_ofNoPromises_fulfilsAtOnceWithAnEmptyArray() {
        let combined = Promise.all([Promise<Int>]())
        XCTAssertEqual(combined.state, .fulfilled)
        XCTAssertEqual(combined.fulfilledValue, [])
    }

    func test_all_ofAlreadyFulfilledPromises_fulfilsAtOnce() {
        let combined = Promise.all([Promise(value: "a"), Promise(value: "b")])
        XCTAssertEqual(combined.fulfilledValue, ["a", "b"])
    }

    func test_all_cancelled_cancelsEveryPendingInput() {
        let inputs = deferreds(3)
        let combined = Promise.all(inputs.map(\.promise))
        inputs[0].fulfill(0)
        combined.cancel()
        XCTAssertEqual(combined.state, .cancelled)
        XCTAssertEqual(inputs.map(\.cancelCount), [0, 1, 1])
    }

    func test_all_pausedAndResumed_pausesAndResumesEveryInput() {
        let inputs = deferreds(2)
        let combined = Promise.all(inputs.map(\.promise))
        combined.pause()
        combined.resume()
        XCTAssertEqual(inputs.map(\.pauseCount), [1, 1])
        XCTAssertEqual(inputs.map(\.resumeCount), [1, 1])
    }

    // MARK: any

    func test_any_fulfilsWithTheFirstFulfilment_andCancelsTheRest() {
        let inputs = deferreds(3)
        let combined = Promise.any(inputs.map(\.promise))
        inputs[1].fulfill(11)
        inputs[0].fulfill(10)  // too late: cancelled
        XCTAssertEqual(combined.fulfilledValue, 11)
        XCTAssertEqual(inputs.map(\.cancelCount), [1, 0, 1])
    }

    func test_any_fulfilsAfterSomeInputsWereRejected() {
        let inputs = deferreds(3)
        let combined = Promise.any(inputs.map(\.promise))
        inputs[0].reject(TestError.step(0))
        inputs[2].reject(TestError.step(2))
        XCTAssertEqual(combined.state, .running)
        inputs[1].fulfill(1)
        XCTAssertEqual(combined.fulfilledValue, 1)
    }

    func test_any_allRejected_rejectsWithAllRejectedWithTheErrorsInInputOrder() {
        let inputs = deferreds(3)
        let combined = Promise.any(inputs.map(\.promise))
        inputs[2].reject(TestError.step(2))
        inputs[0].reject(TestError.step(0))
        inputs[1].reject(TestError.step(1))
        guard case .allRejected(let errors)? = combined.failureError as? PromiseError else {
            return XCTFail("expected PromiseError.allRejected, got \(String(describing: combined.result))")
        }
        XCTAssertEqual(errors.map { $0 as? TestError }, [.step(0), .step(1), .step(2)])
    }

    func test_any_countsACancelledInputAsRejected() {
        let inputs = deferreds(2)
        let combined = Promise.any(inputs.map(\.promise))
        inputs[0].promise.cancel()
        inputs[1].reject(TestError.boom)
        guard case .allRejected(let errors)? = combined.failureError as? PromiseError else {
            return XCTFail("expected PromiseError.allRejected, got \(String(describing: combined.result))")
        }
        XCTAssertEqual(errors.count, 2)
        XCTAssertCancellation(errors[0])
        XCTAssertTestError(errors[1], .boom)
    }

    func test_any_ofNoPromises_rejectsAtOnceWithAllRejectedOfNothing() {
        let combined = Promise.any([Promise<Int>]())
        guard case .allRejected(let errors)? = combined.failureError as? PromiseError else {
            return XCTFail("expected PromiseError.allRejected, got \(String(describing: combined.result))")
        }
        XCTAssertEqual(errors.count, 0)
    }

    // MARK: allSettled

    func test_allSettled_fulfilsWithEachOutcomeInInputOrder_andNeverRejects() {
        let inputs = deferreds(3)
        let combined = Promise.allSettled(inputs.map(\.promise))
        inputs[2].promise.cancel()
        inputs[1].reject(TestError.step(1))
        XCTAssertEqual(combined.state, .running)
        inputs[0].fulfill(0)
        guard let outcomes = combined.fulfilledValue else {
            return XCTFail("expected a fulfilment, got \(String(describing: combined.result))")
        }
        XCTAssertEqual(outcomes.count, 3)
        XCTAssertEqual(outcomes[0].value, 0)
        XCTAssertTestError(outcomes[1].error, .step(1))
        XCTAssertCancellation(outcomes[2].error)
        XCTAssertEqual(inputs.map(\.cancelCount), [0, 0, 1])
    }

    func test_allSettled_reportsProgressAsSettledInputsOutOfTotal() {
        let inputs = deferreds(2)
        let received = Recorder<PromiseProgress>()
        Promise.allSettled(inputs.map(\.promise)).progress { received.append($0) }
        inputs[1].reject(TestError.boom)
        inputs[0].fulfill(0)
        XCTAssertEqual(received.events, [progress(1, of: 2), progress(2, of: 2)])
    }

    func test_allSettled_ofNoPromises_fulfilsAtOnceWithAnEmptyArray() {
        let combined = Promise.allSettled([Promise<Int>]())
        XCTAssertEqual(combined.fulfilledValue?.count, 0)
    }

    func test_allSettled_cancelled_cancelsEveryPendingInput() {
        let inputs = deferreds(2)
        let combined = Promise.allSettled(inputs.map(\.promise))
        combined.cancel()
        XCTAssertEqual(combined.state, .cancelled)
        XCTAssertEqual(inputs.map(\.cancelCount), [1, 1])
    }

    // MARK: zip

    func test_zipOfTwo_fulfilsWithBothValues_whicheverFulfilsFirst() {
        let number = Deferred<Int>()
        let text = Deferred<String>()
        let zipped = Promise.zip(number.promise, text.promise)
        text.fulfill("seven")
        XCTAssertEqual(zipped.state, .running)
        number.fulfill(7)
        XCTAssertEqual(zipped.fulfilledValue?.0, 7)
        XCTAssertEqual(zipped.fulfilledValue?.1, "seven")
    }

    func test_zipOfTwo_rejection_rejectsWithItAndCancelsTheOtherInput() {
        let number = Deferred<Int>()
        let text = Deferred<String>()
        let zipped = Promise.zip(number.promise, text.promise)
        number.reject(TestError.boom)
        XCTAssertTestError(zipped.failureError, .boom)
        XCTAssertEqual(text.cancelCount, 1)
        XCTAssertEqual(number.cancelCount, 0)
    }

    func test_zipOfTwo_cancelled_cancelsBothInputs() {
        let number = Deferred<Int>()
        let text = Deferred<String>()
        let zipped = Promise.zip(number.promise, text.promise)
        zipped.cancel()
        XCTAssertEqual([number.cancelCount, text.cancelCount], [1, 1])
    }

    func test_zipOfThreeDifferentTypes_fulfilsWithAllThreeValues() {
        let number = Deferred<Int>()
        let text = Deferred<String>()
        let order = Deferred<Order>()
        let zipped: Promise<(Int, String, Order)> = Promise.zip(number.promise, text.promise, order.promise)
        order.fulfill(Order(id: 1, facility: "Inn"))
        number.fulfill(3)
        text.fulfill("three")
        XCTAssertEqual(zipped.fulfilledValue?.0, 3)
        XCTAssertEqual(zipped.fulfilledValue?.1, "three")
        XCTAssertEqual(zipped.fulfilledValue?.2, Order(id: 1, facility: "Inn"))
    }

    func test_zipOfThree_rejectionOfTheLast_cancelsTheOtherTwo() {
        let number = Deferred<Int>()
        let text = Deferred<String>()
        let flag = Deferred<Bool>()
        let zipped = Promise.zip(number.promise, text.promise, flag.promise)
        flag.reject(TestError.step(3))
        XCTAssertTestError(zipped.failureError, .step(3))
        XCTAssertEqual([number.cancelCount, text.cancelCount, flag.cancelCount], [1, 1, 0])
    }

    func test_zipOfFourDifferentTypes_fulfilsWithAllFourValues() {
        let number = Deferred<Int>()
        let text = Deferred<String>()
        let flag = Deferred<Bool>()
        let photos = Deferred<[Photo]>()
        let zipped: Promise<(Int, String, Bool, [Photo])> =
            Promise.zip(number.promise, text.promise, flag.promise, photos.promise)
        photos.fulfill([Photo(reviewOrderID: 1, name: "p.jpg")])
        flag.fulfill(true)
        text.fulfill("four")
        number.fulfill(4)
        XCTAssertEqual(zipped.fulfilledValue?.0, 4)
        XCTAssertEqual(zipped.fulfilledValue?.1, "four")
        XCTAssertEqual(zipped.fulfilledValue?.2, true)
        XCTAssertEqual(zipped.fulfilledValue?.3, [Photo(reviewOrderID: 1, name: "p.jpg")])
    }

    func test_zipOfFour_cancelled_cancelsEveryInput() {
        let number = Deferred<Int>()
        let text = Deferred<String>()
        let flag = Deferred<Bool>()
        let photos = Deferred<[Photo]>()
        let zipped = Promise.zip(number.promise, text.promise, flag.promise, photos.promise)
        text.fulfill("done")
        zipped.cancel()
        XCTAssertEqual(
            [number.cancelCount, text.cancelCount, flag.cancelCount, photos.cancelCount],
            [1, 0, 1, 1]
        )
    }

    // MARK: race

    func test_race_firstFulfilmentWins_andTheOthersAreCancelled() {
        let inputs = deferreds(3)
        let winner = Promise.race(inputs.map(\.promise))
        inputs[1].fulfill(1)
        inputs[2].reject(TestError.boom)  // too late
        XCTAssertEqual(winner.fulfilledValue, 1)
        XCTAssertEqual(inputs.map(\.cancelCount), [1, 0, 1])
    }

    func test_race_firstRejectionWins_andTheOthersAreCancelled() {
        let inputs = deferreds(3)
        let winner = Promise.race(inputs.map(\.promise))
        inputs[0].reject(TestError.step(0))
        inputs[1].fulfill(1)  // too late
        XCTAssertTestError(winner.failureError, .step(0))
        XCTAssertEqual(inputs.map(\.cancelCount), [0, 1, 1])
    }

    func test_race_ofNoPromises_rejectsAtOnceWithNoPromises() {
        let winner = Promise.race([Promise<Int>]())
        guard case .noPromises? = winner.failureError as? PromiseError else {
            return XCTFail("expected PromiseError.noPromises, got \(String(describing: winner.result))")
        }
    }

    func test_race_cancelled_cancelsEveryInput() {
        let inputs = deferreds(2)
        let winner = Promise.race(inputs.map(\.promise))
        winner.cancel()
        XCTAssertEqual(winner.state, .cancelled)
        XCTAssertEqual(inputs.map(\.cancelCount), [1, 1])
    }
}
