/// The progress of a combinator over inputs that report bytes: their bytes added up.
///
/// Each input is followed in the first byte kind it reports (an upload's bytes sent, a download's
/// bytes received); its later reports of another kind (an upload's response) are left out, so the
/// sum never mixes the two. An input that settles counts as complete. The total is known once
/// every input has reported one.
///
/// Every report costs the same whatever the number of inputs: the sums and counts are kept as
/// reports arrive, each report taking back what its input's previous one had added. A batch of a
/// thousand uploads reporting a hundred times each is then a hundred thousand small steps, not a
/// hundred million.
package struct ProgressSum {
    private var latest: [PromiseProgress?]
    /// How many inputs have reported bytes.
    private var reporting = 0
    /// The latest `completed` of every input, added up.
    private var completed = ExactSum()
    /// The totals known, added up, and how many inputs have one.
    private var total = ExactSum()
    private var withTotal = 0
    /// How many inputs are followed in bytes sent; the others reporting are in bytes received.
    private var sending = 0

    package init(count: Int) {
        latest = Array(repeating: nil, count: count)
    }

    /// Whether any input has reported bytes: the combined progress is then this sum, not a count.
    package var countsBytes: Bool { reporting > 0 }

    /// The sum so far, or `nil` if no input has reported bytes.
    package var current: PromiseProgress? { countsBytes ? sum : nil }

    /// Records input `index`'s report; returns the sum to report, or `nil` when the report does not
    /// count (not bytes, or bytes of another kind than the input is followed in).
    package mutating func record(_ progress: PromiseProgress, at index: Int) -> PromiseProgress? {
        guard progress.kind.countsBytes else { return nil }
        if let previous = latest[index], previous.kind != progress.kind { return nil }
        replace(at: index, with: progress)
        return sum
    }

    /// Input `index` settled: it counts as complete. Returns the sum, or `nil` if no input reports bytes.
    package mutating func complete(at index: Int) -> PromiseProgress? {
        if let progress = latest[index], let total = progress.total {
            replace(at: index, with: PromiseProgress(completed: total, total: total, kind: progress.kind))
        }
        return current
    }

    /// Puts `progress` in place of input `index`'s latest report, keeping the sums.
    private mutating func replace(at index: Int, with progress: PromiseProgress) {
        if let previous = latest[index] {
            completed.subtract(previous.completed)
            if let previousTotal = previous.total {
                total.subtract(previousTotal)
                withTotal -= 1
            }
        } else {
            reporting += 1
            if progress.kind == .bytesSent { sending += 1 }
        }
        completed.add(progress.completed)
        if let newTotal = progress.total {
            total.add(newTotal)
            withTotal += 1
        }
        latest[index] = progress
    }

    private var sum: PromiseProgress {
        // One kind when every input reporting counts in it; a mix is counted as plain units.
        let kind: PromiseProgress.Kind = sending == reporting ? .bytesSent : sending == 0 ? .bytesReceived : .units
        return PromiseProgress(completed: completed.value, total: withTotal == latest.count ? total.value : nil, kind: kind)
    }
}

/// A sum of `Int64`s kept exact past `Int64`'s range (wrapped, with the wraps counted), so that
/// taking back a value always leaves the true sum of the rest: sizes come from servers, and two
/// absurd `Content-Length`s must neither trap nor spoil the sum once one of them is taken back.
package struct ExactSum {
    private var wrapped: Int64 = 0
    /// How many times the true sum has gone past `Int64.max` (negative: below `Int64.min`).
    private var wraps = 0

    package mutating func add(_ value: Int64) {
        let (result, overflow) = wrapped.addingReportingOverflow(value)
        if overflow { wraps += value > 0 ? 1 : -1 }
        wrapped = result
    }

    package mutating func subtract(_ value: Int64) {
        let (result, overflow) = wrapped.subtractingReportingOverflow(value)
        if overflow { wraps += value < 0 ? 1 : -1 }
        wrapped = result
    }

    /// The sum, held at the ends of `Int64` when it is past them.
    package var value: Int64 {
        wraps > 0 ? .max : wraps < 0 ? .min : wrapped
    }
}
