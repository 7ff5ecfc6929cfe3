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
struct ProgressSum {
    private var latest: [PromiseProgress?]
    /// How many inputs have reported bytes.
    private var reporting = 0
    /// The latest `completed` of every input, added up.
    private var completed: Int64 = 0
    /// The totals known, added up, and how many inputs have one.
    private var total: Int64 = 0
    private var withTotal = 0
    /// How many inputs are followed in bytes sent; the others reporting are in bytes received.
    private var sending = 0

    init(count: Int) {
        latest = Array(repeating: nil, count: count)
    }

    /// Whether any input has reported bytes: the combined progress is then this sum, not a count.
    var countsBytes: Bool { reporting > 0 }

    /// The sum so far, or `nil` if no input has reported bytes.
    var current: PromiseProgress? { countsBytes ? sum : nil }

    /// Records input `index`'s report; returns the sum to report, or `nil` when the report does not
    /// count (not bytes, or bytes of another kind than the input is followed in).
    mutating func record(_ progress: PromiseProgress, at index: Int) -> PromiseProgress? {
        guard progress.kind.countsBytes else { return nil }
        if let previous = latest[index], previous.kind != progress.kind { return nil }
        replace(at: index, with: progress)
        return sum
    }

    /// Input `index` settled: it counts as complete. Returns the sum, or `nil` if no input reports bytes.
    mutating func complete(at index: Int) -> PromiseProgress? {
        if let progress = latest[index], let total = progress.total {
            replace(at: index, with: PromiseProgress(completed: total, total: total, kind: progress.kind))
        }
        return current
    }

    /// Puts `progress` in place of input `index`'s latest report, keeping the sums.
    private mutating func replace(at index: Int, with progress: PromiseProgress) {
        if let previous = latest[index] {
            completed = Self.adding(completed, -previous.completed)
            if let previousTotal = previous.total {
                total = Self.adding(total, -previousTotal)
                withTotal -= 1
            }
        } else {
            reporting += 1
            if progress.kind == .bytesSent { sending += 1 }
        }
        completed = Self.adding(completed, progress.completed)
        if let newTotal = progress.total {
            total = Self.adding(total, newTotal)
            withTotal += 1
        }
        latest[index] = progress
    }

    private var sum: PromiseProgress {
        // One kind when every input reporting counts in it; a mix is counted as plain units.
        let kind: PromiseProgress.Kind = sending == reporting ? .bytesSent : sending == 0 ? .bytesReceived : .units
        return PromiseProgress(completed: completed, total: withTotal == latest.count ? total : nil, kind: kind)
    }

    /// `a + b`, held at the ends of `Int64` rather than trapping: sizes come from servers, and two
    /// absurd `Content-Length`s must not end the process.
    private static func adding(_ a: Int64, _ b: Int64) -> Int64 {
        let (result, overflow) = a.addingReportingOverflow(b)
        guard overflow else { return result }
        return b > 0 ? .max : .min
    }
}
