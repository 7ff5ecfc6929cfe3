import BatonLocking

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

    /// The count now.
    package var value: Int { storage.value }
}
