/// One measured figure beside the baseline it was compared with in the same run.
///
/// `ratio` is always Baton's figure divided by the baseline's, so for times below 1 is faster and for
/// rates (requests per second) above 1 is faster; the table says which unit each row uses.
struct BenchResult: Sendable {
    /// Stable machine-readable name, such as `promise.step.vs_closure`.
    var name: String
    /// Human-readable label of the row, such as `step (1,000,000-step chain)`.
    var label: String
    /// Baton's figure.
    var value: Double
    /// Unit of both figures: `ns`, `bytes`, `req/s`.
    var unit: String
    /// The baseline's figure, measured in the same run.
    var baseline: Double
    /// What the baseline is, such as `closure` or `Task-per-step`.
    var baselineLabel: String
    /// The ratio the project aims for, if it has one.
    var target: Target? = nil
    /// The ratio as measured pair by pair, when the suite measured it so (see `ClientSuite`);
    /// otherwise the ratio is `value / baseline`.
    var pairedRatio: Double? = nil

    var ratio: Double { pairedRatio ?? (baseline == 0 ? .nan : value / baseline) }
}

/// A target: on the ratio, `atMost` for costs (time, bytes) and `atLeast` for rates; or, for a
/// figure that has a limit of its own (memory growth in MiB), `valueAtMost`.
enum Target: Sendable {
    case atMost(Double)
    case atLeast(Double)
    case valueAtMost(Double, unit: String)

    func isMet(by result: BenchResult) -> Bool {
        switch self {
        case .atMost(let limit): return result.ratio <= limit
        case .atLeast(let limit): return result.ratio >= limit
        case .valueAtMost(let limit, _): return result.value <= limit
        }
    }

    var label: String {
        switch self {
        case .atMost(let limit): return "<= \(Report.ratio(limit))"
        case .atLeast(let limit): return ">= \(Report.ratio(limit))"
        case .valueAtMost(let limit, let unit): return "<= \(Report.figure(limit, unit))"
        }
    }
}
