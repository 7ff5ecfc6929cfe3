import BatonSupport

/// A thread-safe, ordered record of what a test observed: events, progress, log lines.
package final class Recorder<Element: Sendable>: Sendable {
    private let storage = Locked<[Element]>([])

    package init() {}

    /// Adds `element` at the end.
    package func append(_ element: Element) {
        storage.withLock { $0.append(element) }
    }

    /// Everything recorded so far, in order.
    package var events: [Element] { storage.value }

    /// How many elements were recorded.
    package var count: Int { storage.withLock { $0.count } }
}
