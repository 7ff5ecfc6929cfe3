/// A value behind the package's ``Lock``, as an object: for state that escaping closures share
/// (a combinator's inputs, a server's connections, a test's recorded events), where a lock stored
/// in place cannot be captured because it cannot be copied.
package final class Locked<Value>: Sendable {
    @usableFromInline let lock: Lock<Value>

    /// A lock around `value`.
    @inlinable
    package init(_ value: sending Value) {
        lock = Lock(value)
    }

    /// Runs `body` with the value while holding the lock; keep it short and never wait inside it.
    @inlinable
    package func withLock<R: Sendable>(_ body: (inout Value) throws -> R) rethrows -> R {
        try lock.withLock(annotating: self, body)
    }
}

extension Locked where Value: Sendable {
    /// The current value (a copy, read under the lock).
    @inlinable
    package var value: Value { withLock { $0 } }
}
