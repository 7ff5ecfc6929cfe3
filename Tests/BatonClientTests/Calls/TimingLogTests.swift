@testable import BatonClient
import Foundation
import TestSupport
import XCTest

/// TimingLog, driven by hand: how the moments of a call's attempts become its phases (each from
/// the mark before to its own), what an unmarked or out-of-order mark does, the retry waits, and
/// that the phases always add up to the total.
final class TimingLogTests: XCTestCase {
    private typealias Instant = ContinuousClock.Instant

    /// Instants in order, taken from the clock now: `count` of them, each no earlier than the one before.
    private func instants(_ count: Int) -> [Instant] {
        (0..<count).map { _ in ContinuousClock.now }
    }

    private func sum(_ timings: CallTimings) -> Duration {
        timings.attempts.reduce(timings.preparing) { sum, attempt in
            let phases: [Duration?] = [
                attempt.adapting, attempt.connecting, attempt.securing, attempt.sending, attempt.waiting,
                attempt.receiving, attempt.processing, attempt.retryWait,
            ]
            return phases.reduce(sum) { $0 + ($1 ?? .zero) }
        }
    }

    func test_noAttempt_isAllPreparing() {
        let start = ContinuousClock.now
        let log = TimingLog(started: start)
        let end = start + .milliseconds(3)
        let timings = log.timings(end: end)
        XCTAssertEqual(timings.preparing, .milliseconds(3))
        XCTAssertEqual(timings.total, .milliseconds(3))
        XCTAssertTrue(timings.attempts.isEmpty)
    }

    func test_everyMark_givesItsPhase_fromTheMarkBefore() {
        var log = TimingLog(started: ContinuousClock.now)
        log.attemptStarted()
        log.adapted()
        let t = instants(4)
        log.exchanged(
            transfer: TransferTimer.Marks(connected: t[0], secured: t[1], sent: t[2], firstByte: t[3], reusedConnection: false),
            answered: true
        )
        log.processed()
        let timings = log.timings(end: ContinuousClock.now)

        let attempt = timings.attempts[0]
        XCTAssertEqual(attempt.securing, t[1] - t[0])
        XCTAssertEqual(attempt.sending, t[2] - t[1])
        XCTAssertEqual(attempt.waiting, t[3] - t[2])
        XCTAssertNotNil(attempt.connecting)
        XCTAssertNotNil(attempt.receiving)
        XCTAssertNotNil(attempt.processing)
        XCTAssertEqual(attempt.reusedConnection, false)
        XCTAssertNil(attempt.retryWait)
        XCTAssertEqual(sum(timings), timings.total)
    }

    func test_aMissingMark_leavesItsPhaseOut_andTheNextMarkedPhaseTakesItsTime() {
        var log = TimingLog(started: ContinuousClock.now)
        log.attemptStarted()
        log.adapted()
        let t = instants(3)
        // No TLS: `secured` is not marked, so `sending` runs from `connected`.
        log.exchanged(transfer: TransferTimer.Marks(connected: t[0], sent: t[1], firstByte: t[2], reusedConnection: true), answered: true)
        log.processed()
        let timings = log.timings(end: ContinuousClock.now)

        let attempt = timings.attempts[0]
        XCTAssertNil(attempt.securing)
        XCTAssertEqual(attempt.sending, t[1] - t[0])
        XCTAssertEqual(attempt.waiting, t[2] - t[1])
        XCTAssertEqual(attempt.reusedConnection, true)
        XCTAssertEqual(sum(timings), timings.total)
    }

    func test_aMarkEarlierThanTheOneBefore_isLeftOut_andTheRestGoesToTheNextPhase() {
        let start = ContinuousClock.now
        var log = TimingLog(started: start)
        log.attemptStarted()
        log.adapted()
        // Marks well after the attempt's own (so that their spans are known exactly), `secured`
        // before `connected`; the response never came (cancelled while receiving).
        let base = ContinuousClock.now
        let marks = TransferTimer.Marks(
            connected: base + .seconds(1), secured: base, sent: base + .seconds(3), firstByte: base + .seconds(6)
        )
        log.exchanged(transfer: marks, answered: false)
        let end = base + .seconds(10)
        let timings = log.timings(end: end)

        let attempt = timings.attempts[0]
        XCTAssertNil(attempt.securing, "secured before connected")
        XCTAssertEqual(attempt.sending, .seconds(2))
        XCTAssertEqual(attempt.waiting, .seconds(3))
        XCTAssertEqual(attempt.receiving, .seconds(4), "from the first byte to the call's end")
        XCTAssertNil(attempt.processing)
        XCTAssertEqual(sum(timings), end - start)
        XCTAssertEqual(timings.total, end - start)
    }

    func test_aCallCutShortAfterAdapting_countsTheRestAsConnecting() {
        let start = ContinuousClock.now
        var log = TimingLog(started: start)
        log.attemptStarted()
        log.adapted()
        let end = ContinuousClock.now + .milliseconds(7)
        let timings = log.timings(end: end)

        let attempt = timings.attempts[0]
        XCTAssertGreaterThanOrEqual(attempt.connecting ?? .zero, .milliseconds(7))
        XCTAssertNil(attempt.securing)
        XCTAssertNil(attempt.sending)
        XCTAssertNil(attempt.waiting)
        XCTAssertNil(attempt.receiving)
        XCTAssertNil(attempt.processing)
        XCTAssertEqual(sum(timings), end - start)
    }

    func test_failedAttempts_haveTheirRetryWait_theLastHasNone() {
        var log = TimingLog(started: ContinuousClock.now)
        log.attemptStarted()
        log.adapted()
        log.exchanged(transfer: TransferTimer.Marks(), answered: false)
        log.failed()
        log.attemptStarted()
        log.adapted()
        log.exchanged(transfer: TransferTimer.Marks(), answered: true)
        log.failed()
        log.attemptStarted()
        log.adapted()
        log.exchanged(transfer: TransferTimer.Marks(), answered: true)
        log.processed()
        let timings = log.timings(end: ContinuousClock.now)

        XCTAssertEqual(timings.attempts.count, 3)
        XCTAssertEqual(timings.attempts.map { $0.retryWait != nil }, [true, true, false])
        XCTAssertNil(timings.attempts[0].processing, "the first attempt had no answer")
        XCTAssertNotNil(timings.attempts[1].processing, "the second's answer was refused while processed")
        XCTAssertEqual(sum(timings), timings.total)
    }

    func test_failed_keepsTheEndTheExchangeMarked() {
        var log = TimingLog(started: ContinuousClock.now)
        log.attemptStarted()
        log.adapted()
        log.exchanged(transfer: TransferTimer.Marks(), answered: false)
        let exchangedEnd = log.attempts[0].ended
        log.failed()
        XCTAssertNotNil(exchangedEnd)
        XCTAssertEqual(log.attempts[0].ended, exchangedEnd)
    }

    func test_marksBeforeAnyAttempt_areIgnored() {
        let start = ContinuousClock.now
        var log = TimingLog(started: start)
        log.adapted()
        log.exchanged(transfer: TransferTimer.Marks(), answered: true)
        log.processed()
        log.failed()
        XCTAssertTrue(log.attempts.isEmpty)
        XCTAssertEqual(log.timings(end: start + .seconds(1)).preparing, .seconds(1))
    }

    func test_retryWaits_isTheSumOfTheAttemptsWaits() {
        var log = TimingLog(started: ContinuousClock.now)
        for _ in 0..<3 {
            log.attemptStarted()
            log.adapted()
            log.exchanged(transfer: TransferTimer.Marks(), answered: false)
            log.failed()
        }
        let timings = log.timings(end: ContinuousClock.now)
        let waits = timings.attempts.compactMap(\.retryWait)
        XCTAssertEqual(waits.count, 2)
        XCTAssertEqual(timings.retryWaits, waits[0] + waits[1])
        XCTAssertEqual(sum(timings), timings.total)
    }
}
