import Dispatch

/// Every conversion of a `Duration` into a count of smaller units, in one place: a duration can
/// be anything a caller writes (`.seconds(.max)` for "never" included), and a plain
/// `seconds * 1_000_000_000` overflows and traps. Each conversion here saturates instead: a
/// negative duration counts as none, one too long to count as the most there is.
extension Duration {
    /// The duration in seconds, for Foundation APIs (a `Double` holds any duration, roughly).
    package var timeInterval: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The duration in whole nanoseconds, clamped to `0...Int.max` (292 years): the one
    /// conversion the others below go through.
    package var clampedNanoseconds: Int {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return Int.max }
        let (total, overflow2) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow2 { return Int.max }
        return Int(clamping: max(0, total))
    }

    /// The duration in whole milliseconds, rounded down and clamped like ``clampedNanoseconds``.
    package var clampedMilliseconds: Int { clampedNanoseconds / 1_000_000 }

    /// The duration in milliseconds, rounded to the nearest and clamped like
    /// ``clampedNanoseconds``: for what is shown to people.
    package var roundedMilliseconds: Int {
        let nanoseconds = clampedNanoseconds
        return nanoseconds / 1_000_000 + (nanoseconds % 1_000_000 >= 500_000 ? 1 : 0)
    }

    /// This duration for Dispatch, clamped like ``clampedNanoseconds`` (Dispatch takes the most
    /// as "forever").
    package var dispatchInterval: DispatchTimeInterval { .nanoseconds(clampedNanoseconds) }

    /// This duration times `factor` (not negative), or `.seconds(Int64.max)` when the product
    /// is longer: `Duration`'s own `*` traps there.
    package func saturatingMultiplied(by factor: Int) -> Duration {
        guard factor > 0 else { return .zero }
        let most = Duration.seconds(Int64.max)
        guard self < most / factor else { return most }
        return self * factor
    }
}
