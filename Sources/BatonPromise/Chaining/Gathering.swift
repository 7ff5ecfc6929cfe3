/// What `all` and `allSettled` gather from their inputs: each one's outcome, by index, and their
/// progress: their bytes added up when they report bytes, else how many are in, out of how many.
package struct Gathering<Element> {
    private var tally: Tally<Element>
    private var bytes: ProgressSum

    package init(count: Int) {
        tally = Tally(count: count)
        bytes = ProgressSum(count: count)
    }

    /// Input `index` reported `progress`: the combined progress to report, if it counts.
    package mutating func report(_ progress: PromiseProgress, at index: Int) -> PromiseProgress? {
        bytes.record(progress, at: index)
    }

    /// Input `index` ended with `element`: the combined progress, and every element in input order
    /// once the last is in.
    package mutating func settle(_ element: Element, at index: Int) -> (PromiseProgress, [Element]?) {
        let (done, elements) = tally.record(element, at: index)
        let progress = bytes.complete(at: index) ?? PromiseProgress(completed: Int64(done), total: Int64(tally.count))
        return (progress, elements)
    }
}

/// Outcomes of a combinator's inputs gathered by index until all are in.
package struct Tally<Element> {
    private var slots: [Element?]
    private var filled = 0

    package init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    /// How many inputs there are.
    package var count: Int { slots.count }

    /// Records the outcome of input `index`; returns how many are in, and all of them in input
    /// order once the last one is. An input recorded twice counts once.
    package mutating func record(_ element: Element, at index: Int) -> (Int, [Element]?) {
        if slots[index] == nil { filled += 1 }
        slots[index] = element
        return (filled, filled == slots.count ? slots.compactMap { $0 } : nil)
    }
}
