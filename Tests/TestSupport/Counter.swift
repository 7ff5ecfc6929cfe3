import BatonSupport

/// A thread-safe count.
package final class Counter: Sendable {
    private let storage = Locked(0)

    package init() {}

    /// Adds one and returns the new count.
    @discardableResult
    package func increment() -> Int {
        storage.withLock { count in
            count += 1
            return count
        }
    }

    /// Takes one away and returns the new count.
    @discardableResult
    package func decrement() -> Int {
        storage.withLock { count in
            count -= 1
            return count
        }
    }

    /// Sets the count to `value` if that is higher: the count becomes the largest value seen.
    package func raise(to value: Int) {
        storage.withLock { $0 = max($0, value) }
    }

    /// The count now.
    package var value: Int { storage.value }
}
