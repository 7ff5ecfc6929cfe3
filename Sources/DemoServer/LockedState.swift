import Foundation

/// A value that threads share, read and written only under a lock.
///
/// An `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: ThreadSanitizer on Linux does
/// not see the futex inside `Mutex` and reports every access under it as a race, while it understands
/// pthread mutexes. CI runs the suite under ThreadSanitizer.
// Guarded by `lock`: `value` is only touched inside `withLock`.
final class LockedState<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock; keep it short and never wait inside it.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
