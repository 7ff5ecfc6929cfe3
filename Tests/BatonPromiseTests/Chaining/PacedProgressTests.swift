@testable import BatonPromise
import TestSupport
import XCTest

/// `progress(every:)` and `progress(everyFraction:)`: few reports a person can read, the first,
/// the changes and the last always among them, and a report held back handed out at the end.
final class PacedProgressTests: XCTestCase {
    private let start = ContinuousClock.now

    private func at(_ milliseconds: Int) -> ContinuousClock.Instant {
        start + .milliseconds(milliseconds)
    }

    private func sent(_ completed: Int64, of total: Int64? = 100) -> PromiseProgress {
        PromiseProgress(completed: completed, total: total, kind: .bytesSent)
    }

    // MARK: The pacer

    func test_anInterval_passesTheFirst_thenOnePerInterval_andTheLast() {
        var pacer = ProgressPacer(.interval(.milliseconds(250)))
        let passed = (0...100).filter { step in pacer.admits(sent(Int64(step)), at: at(step * 10)) }
        // Reported every 10 ms for a second: 0, then one a quarter second, and 100, the end.
        XCTAssertEqual(passed, [0, 25, 50, 75, 100])
        XCTAssertNil(pacer.takeWithheld(), "the last passed: nothing is held back")
    }

    /// Work that completes within the interval still shows its end at once.
    func test_anInterval_passesTheReportThatCompletesTheWork_beforeItsTime() {
        var pacer = ProgressPacer(.interval(.seconds(1)))
        XCTAssertTrue(pacer.admits(sent(0), at: at(0)))
        XCTAssertFalse(pacer.admits(sent(50), at: at(1)))
        XCTAssertTrue(pacer.admits(sent(100), at: at(2)), "the end")
        XCTAssertFalse(pacer.admits(sent(100), at: at(3)), "the same end again tells nothing")
        XCTAssertNil(pacer.takeWithheld())
    }

    func test_aFraction_passesOneReportPerStepOfTheTotal() {
        var pacer = ProgressPacer(.fraction(0.25))
        let passed = (0...20).filter { pacer.admits(sent(Int64($0 * 5)), at: start) }.map { $0 * 5 }
        XCTAssertEqual(passed, [0, 25, 50, 75, 100])
    }

    func test_aNewKindOrTotal_orAStartOver_alwaysPasses() {
        var pacer = ProgressPacer(.interval(.seconds(60)))
        XCTAssertTrue(pacer.admits(sent(0), at: start))
        XCTAssertFalse(pacer.admits(sent(10), at: start))
        XCTAssertTrue(pacer.admits(PromiseProgress(completed: 0, total: 5, kind: .bytesReceived), at: start), "a new kind")
        XCTAssertTrue(pacer.admits(PromiseProgress(completed: 1, total: 9, kind: .bytesReceived), at: start), "a new total")
        XCTAssertTrue(pacer.admits(PromiseProgress(completed: 0, total: 9, kind: .bytesReceived), at: start), "a retry starting again")
        XCTAssertFalse(pacer.admits(PromiseProgress(completed: 2, total: 9, kind: .bytesReceived), at: start))
    }

    func test_aFraction_withoutATotal_passesEveryReport() {
        var pacer = ProgressPacer(.fraction(0.5))
        XCTAssertEqual((1...4).filter { pacer.admits(sent(Int64($0), of: nil), at: start) }, [1, 2, 3, 4])
    }

    func test_theReportHeldBackLast_isTakenOnce() {
        var pacer = ProgressPacer(.interval(.seconds(1)))
        _ = pacer.admits(sent(1, of: nil), at: start)
        _ = pacer.admits(sent(2, of: nil), at: at(1))
        _ = pacer.admits(sent(3, of: nil), at: at(2))
        XCTAssertEqual(pacer.takeWithheld(), sent(3, of: nil))
        XCTAssertNil(pacer.takeWithheld())
    }

    // MARK: On a promise

    func test_everyFraction_onAPromise_handsAFewReports_endingFull() {
        let deferred = Deferred<Int>()
        let seen = Recorder<PromiseProgress>()
        deferred.promise.progress(everyFraction: 0.1) { seen.append($0) }
        for completed in stride(from: Int64(0), through: 1000, by: 8) { deferred.report(completed, of: 1000) }
        deferred.report(1000, of: 1000)
        deferred.fulfill(0)
        XCTAssertEqual(seen.events.map(\.completed), [0, 104, 200, 304, 400, 504, 600, 704, 800, 904, 1000])
    }

    /// A response without a length ends without a report that completes it: the one held back
    /// goes out as the promise settles, so the handler's last value is the latest.
    func test_every_onAPromise_handsOutTheReportHeldBack_whenItSettles() {
        let deferred = Deferred<Int>()
        let seen = Recorder<PromiseProgress>()
        deferred.promise.progress(every: .seconds(3600)) { seen.append($0) }
        deferred.report(1)
        deferred.report(2)
        deferred.report(3)
        XCTAssertEqual(seen.events, [progress(1)])
        deferred.fulfill(0)
        XCTAssertEqual(seen.events, [progress(1), progress(3)])
    }

    func test_every_onAQueue_runsTheHandlerThere() {
        let deferred = Deferred<Int>()
        let queue = DispatchQueue(label: "paced")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let ran = expectation(description: "the handler ran on the queue")
        deferred.promise.progress(on: queue, every: .seconds(1)) { _ in
            XCTAssertEqual(DispatchQueue.getSpecific(key: key), true)
            ran.fulfill()
        }
        deferred.report(1, of: 2)
        wait(for: [ran], timeout: 30)
    }
}
