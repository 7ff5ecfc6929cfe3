/// The progress of a combinator over inputs that report bytes: their bytes added up.
///
/// Each input is followed in the first byte kind it reports (an upload's bytes sent, a download's
/// bytes received); its later reports of another kind (an upload's response) are left out, so the
/// sum never mixes the two. An input that settles counts as complete. The total is known once
/// every input has reported one.
struct ProgressSum {
    private var latest: [PromiseProgress?]

    init(count: Int) {
        latest = Array(repeating: nil, count: count)
    }

    /// Whether any input has reported bytes: the combined progress is then this sum, not a count.
    var countsBytes: Bool { latest.contains { $0 != nil } }

    /// The sum so far, or `nil` if no input has reported bytes.
    var current: PromiseProgress? { countsBytes ? sum : nil }

    /// Records input `index`'s report; returns the sum to report, or `nil` when the report does not
    /// count (not bytes, or bytes of another kind than the input is followed in).
    mutating func record(_ progress: PromiseProgress, at index: Int) -> PromiseProgress? {
        guard progress.kind.countsBytes else { return nil }
        if let previous = latest[index], previous.kind != progress.kind { return nil }
        latest[index] = progress
        return sum
    }

    /// Input `index` settled: it counts as complete. Returns the sum, or `nil` if no input reports bytes.
    mutating func complete(at index: Int) -> PromiseProgress? {
        if let progress = latest[index], let total = progress.total {
            latest[index] = PromiseProgress(completed: total, total: total, kind: progress.kind)
        }
        return countsBytes ? sum : nil
    }

    private var sum: PromiseProgress {
        let reported = latest.compactMap { $0 }
        let completed = reported.reduce(Int64(0)) { $0 + $1.completed }
        let totals = reported.compactMap(\.total)
        let total = totals.count == latest.count ? totals.reduce(Int64(0), +) : nil
        let kinds = Set(reported.map(\.kind))
        return PromiseProgress(completed: completed, total: total, kind: kinds.count == 1 ? kinds.first! : .units)
    }
}
