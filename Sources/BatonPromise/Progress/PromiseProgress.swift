/// How far the work behind a promise has come, in units the work chooses.
///
/// For an HTTP transfer the units are bytes, sent or received (``kind`` says which); for
/// ``Promise/all(_:)`` they are the inputs' bytes summed when they report bytes, settled inputs
/// otherwise. One
/// concrete type serves every promise, whatever its value type, so that the progress of a step
/// flows into a chained promise of another value type without conversion.
public struct PromiseProgress: Sendable, Hashable, CustomStringConvertible {
    /// What a progress value counts. Compare with `==`, or `switch` with a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// Units of the work's own choosing, such as settled inputs of ``Promise/all(_:)``.
        public static let units = Kind(name: "units")
        /// Bytes of a request body sent so far: an upload's bar.
        public static let bytesSent = Kind(name: "bytesSent")
        /// Bytes of a response received so far: a download's bar.
        public static let bytesReceived = Kind(name: "bytesReceived")

        /// Whether this kind counts bytes (sent or received).
        public var countsBytes: Bool { self == .bytesSent || self == .bytesReceived }

        /// The kind's name, as in `bytesSent`.
        public var description: String { name }
    }

    /// Units done so far.
    public var completed: Int64
    /// Units expected in all, or `nil` when the work cannot know (a response without a length).
    public var total: Int64?
    /// What ``completed`` and ``total`` count. A call reports ``Kind/bytesSent`` while its body
    /// goes out, then ``Kind/bytesReceived``; within one kind its progress never goes backwards,
    /// except when a retry starts the call again (the client's `retrying` event, then
    /// ``Kind/units`` at zero).
    public var kind: Kind

    /// Creates a progress value. Negative counts are clamped to zero.
    public init(completed: Int64, total: Int64? = nil, kind: Kind = .units) {
        self.completed = max(0, completed)
        self.total = total.map { max(0, $0) }
        self.kind = kind
    }

    /// `completed / total` in `0...1`, or `nil` while the total is unknown. Work with a total of
    /// zero units counts as complete.
    public var fractionCompleted: Double? {
        guard let total else { return nil }
        guard total > 0 else { return 1 }
        return min(1, Double(completed) / Double(total))
    }

    /// `completed/total`, as in `512/2048`, or `512/?` while the total is unknown, followed by
    /// what bytes count: `512/2048 bytes sent`, `164/164 bytes received`.
    public var description: String {
        let counted = total.map { "\(completed)/\($0)" } ?? "\(completed)/?"
        switch kind {
        case .bytesSent: return counted + " bytes sent"
        case .bytesReceived: return counted + " bytes received"
        default: return counted
        }
    }
}
