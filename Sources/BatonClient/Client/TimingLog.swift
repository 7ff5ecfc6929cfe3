/// The moments of one call, as it goes: kept by its ``Call`` (for clients with monitors), and
/// turned into ``CallTimings`` when it ends.
struct TimingLog {
    typealias Instant = ContinuousClock.Instant

    /// One attempt's moments.
    struct Attempt {
        var started: Instant
        var adapted: Instant?
        var transfer = TransferTimer.Marks()
        /// The response is in (a successful exchange).
        var completed: Instant?
        /// The response is decoded and kept.
        var processed: Instant?
        /// The attempt ended: processed, or failed.
        var ended: Instant?
    }

    let started: Instant
    private(set) var attempts: [Attempt] = []

    init(started: Instant) {
        self.started = started
    }

    mutating func attemptStarted() {
        attempts.append(Attempt(started: .now))
    }

    mutating func adapted() {
        mutateLast { $0.adapted = .now }
    }

    /// The exchange is over: the response is in (`answered`), or it failed.
    mutating func exchanged(transfer: TransferTimer.Marks, answered: Bool) {
        let now = ContinuousClock.now
        mutateLast { attempt in
            attempt.transfer = transfer
            if answered { attempt.completed = now } else { attempt.ended = now }
        }
    }

    /// The response is decoded and kept: the attempt succeeded.
    mutating func processed() {
        let now = ContinuousClock.now
        mutateLast { attempt in
            attempt.processed = now
            attempt.ended = now
        }
    }

    /// The attempt failed (if it had not ended already).
    mutating func failed() {
        let now = ContinuousClock.now
        mutateLast { attempt in
            if attempt.ended == nil { attempt.ended = now }
        }
    }

    private mutating func mutateLast(_ change: (inout Attempt) -> Void) {
        guard !attempts.isEmpty else { return }
        change(&attempts[attempts.count - 1])
    }

    /// The phases of the call, ended at `end`: each phase runs from the end of the one before
    /// (the attempt's start, for the first) to its own mark; a phase without a mark is `nil` and
    /// the next marked phase takes its time, so that they add up to the total. The time after
    /// an attempt's last mark, to its end (a failure, a cancellation), is the next phase's: the
    /// one it was in.
    func timings(end: Instant) -> CallTimings {
        let preparing = (attempts.first?.started ?? end) - started
        var result: [AttemptTimings] = []
        for (index, attempt) in attempts.enumerated() {
            let isLast = index == attempts.count - 1
            let marks = [
                attempt.adapted, attempt.transfer.connected, attempt.transfer.secured, attempt.transfer.sent,
                attempt.transfer.firstByte, attempt.completed, attempt.processed,
            ]
            var phases = [Duration?](repeating: nil, count: marks.count)
            var previous = attempt.started
            var next = 0
            for (phase, mark) in marks.enumerated() {
                guard let mark, mark >= previous else { continue }
                phases[phase] = mark - previous
                previous = mark
                next = phase + 1
            }
            // The last attempt ends with the call; an earlier one where it failed.
            let ended = max(isLast ? end : (attempt.ended ?? previous), previous)
            let rest = min(next, marks.count - 1)
            phases[rest] = (phases[rest] ?? .zero) + (ended - previous)
            let retryWait = isLast ? nil : max(.zero, attempts[index + 1].started - ended)
            result.append(AttemptTimings(
                adapting: phases[0] ?? .zero, connecting: phases[1], securing: phases[2], sending: phases[3],
                waiting: phases[4], receiving: phases[5], processing: phases[6], retryWait: retryWait,
                reusedConnection: attempt.transfer.reusedConnection
            ))
        }
        return CallTimings(preparing: preparing, attempts: result, total: end - started)
    }
}
