/// How far the work behind a promise has come, in units the work chooses.
///
/// For an HTTP transfer the units are bytes; for ``Promise/all(_:)`` they are settled inputs. One
/// concrete type serves every promise, whatever its value type, so that the progress of a step
/// flows into a chained promise of another value type without conversion.
public struct PromiseProgress: Sendable, Hashable, CustomStringConvertible {
    /// Units done so far.
    public var completed: Int64
    /// Units expected in all, or `nil` when the work cannot know (a response without a length).
    public var total: Int64?

    /// Creates a progress value. Negative counts are clamped to zero.
    public init(completed: Int64, total: Int64? = nil) {
        self.completed = max(0, completed)
        self.total = total.map { max(0, $0) }
    }

    /// `completed / total` in `0...1`, or `nil` while the total is unknown. Work with a total of
    /// zero units counts as complete.
    public var fractionCompleted: Double? {
        guard let total else { return nil }
        guard total > 0 else { return 1 }
        return min(1, Double(completed) / Double(total))
    }

    /// `completed/total`, as in `512/2048`, or `512/?` while the total is unknown.
    public var description: String {
        if let total { return "\(completed)/\(total)" }
        return "\(completed)/?"
    }
}
