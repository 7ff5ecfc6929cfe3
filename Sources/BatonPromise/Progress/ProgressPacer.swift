/// Decides which progress reports a paced handler sees (``Promise/progress(on:every:_:)`` and
/// ``Promise/progress(on:everyFraction:_:)``): at most one per interval, or one per step of the
/// fraction done.
///
/// Whatever the pace, a handler sees the first report it is handed (progress is a latest value:
/// reports made faster than handlers run are merged before any pacing), every change of kind or
/// total (an upload turning into its response, a retry starting again) and the report that
/// completes the work, so a bar starts, never shows a stale total, and ends full. A report held back is handed out
/// when the promise settles if no later one was, so the last thing a handler sees is the latest.
package struct ProgressPacer: Sendable {
    package enum Pace: Sendable {
        case interval(Duration)
        case fraction(Double)
    }

    private let pace: Pace
    private var passed: PromiseProgress?
    private var passedAt: ContinuousClock.Instant?
    private var withheld: PromiseProgress?

    package init(_ pace: Pace) {
        self.pace = pace
    }

    /// Whether `progress`, reported at `now`, goes to the handler.
    package mutating func admits(_ progress: PromiseProgress, at now: ContinuousClock.Instant) -> Bool {
        // The same value again tells nothing new: neither passed nor kept for the end.
        if progress == passed { return false }
        if let passed, let passedAt, !mustPass(progress, after: passed), !isDue(progress, after: passed, since: passedAt, now: now) {
            withheld = progress
            return false
        }
        passed = progress
        passedAt = now
        withheld = nil
        return true
    }

    /// The report held back last, to hand out as the promise settles; `nil` when none is.
    package mutating func takeWithheld() -> PromiseProgress? {
        defer { withheld = nil }
        return withheld
    }

    /// A start over, a new kind or total, or the end: what a bar must show whatever the pace.
    private func mustPass(_ progress: PromiseProgress, after passed: PromiseProgress) -> Bool {
        if progress.kind != passed.kind || progress.total != passed.total || progress.completed < passed.completed { return true }
        guard let total = progress.total else { return false }
        return progress.completed >= total && passed.completed < total
    }

    private func isDue(
        _ progress: PromiseProgress, after passed: PromiseProgress, since passedAt: ContinuousClock.Instant, now: ContinuousClock.Instant
    ) -> Bool {
        switch pace {
        case .interval(let interval):
            return now - passedAt >= interval
        case .fraction(let step):
            // No total, no fraction to step by: every report is due.
            guard let done = progress.fractionCompleted, let before = passed.fractionCompleted, step > 0 else { return true }
            return steps(done, of: step) > steps(before, of: step)
        }
    }

    /// How many whole `step`s `fraction` holds: 0.6 holds six tenths, though `0.6 / 0.1` is
    /// 5.999… in binary.
    private func steps(_ fraction: Double, of step: Double) -> Double {
        (fraction / step + 1e-9).rounded(.down)
    }
}
