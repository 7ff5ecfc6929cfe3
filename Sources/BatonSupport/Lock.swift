#if canImport(Darwin)
import os
#else
import Synchronization
#endif

/// The package's one lock: a value that threads share, read and written only inside ``withLock(annotating:_:)``.
///
/// It is stored in place (no allocation of its own on Linux), so an object can hold one as a
/// stored property; share it between closures through ``Locked`` instead. On Linux it is
/// `Synchronization.Mutex`; on Apple platforms `OSAllocatedUnfairLock`, which reaches back to
/// macOS 13 and iOS 16 where `Mutex` needs macOS 15 and iOS 18.
///
/// Every critical section is announced to ThreadSanitizer under the owner's address, because
/// ThreadSanitizer cannot see the futex inside `Mutex` (see ``ThreadSanitizer``).
@usableFromInline
// Guarded by the mutex (unfair lock) it wraps: the value is reached only inside `withLock`.
package struct Lock<Value>: ~Copyable, @unchecked Sendable {
    #if canImport(Darwin)
    @usableFromInline let lock: OSAllocatedUnfairLock<Value>

    /// A lock around `value`.
    @inlinable
    package init(_ value: consuming sending Value) {
        lock = OSAllocatedUnfairLock(uncheckedState: value)
    }
    #else
    @usableFromInline let mutex: Mutex<Value>

    /// A lock around `value`, moved in: taken by copy, a promise's state was copied and destroyed
    /// once more for every promise made.
    @inlinable
    package init(_ value: consuming sending Value) {
        mutex = Mutex(value)
    }
    #endif

    /// Runs `body` with the value while holding the lock. `owner` is the object that stores this
    /// lock: its address names the critical section for ThreadSanitizer. Keep `body` short, never
    /// wait inside it, and never call code you do not control from it.
    @inlinable
    package func withLock<R: Sendable>(annotating owner: AnyObject, _ body: (inout Value) throws -> R) rethrows -> R {
        #if canImport(Darwin)
        return try lock.withLockUnchecked(body)
        #else
        guard let annotations = ThreadSanitizer.annotations else {
            return try mutex.withLock { (value: inout sending Value) -> R in try body(&value) }
        }
        return try mutex.withLock { (value: inout sending Value) -> R in
            let address = Unmanaged.passUnretained(owner).toOpaque()
            annotations.acquire(address)
            defer { annotations.release(address) }
            return try body(&value)
        }
        #endif
    }
}
