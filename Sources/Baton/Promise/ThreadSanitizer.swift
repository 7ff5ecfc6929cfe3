#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Tells ThreadSanitizer about Baton's locks, when the program runs under it.
///
/// On Linux, `Synchronization.Mutex` waits with raw futex calls that ThreadSanitizer cannot see,
/// so it reports every access made under such a lock as a race, and a `--sanitize=thread` run of
/// any code using Baton would fail. Each critical section therefore also announces an acquire and
/// a release on the lock owner's address. The annotation functions are looked up once; in a
/// program without ThreadSanitizer they are absent and the cost is a nil check.
@usableFromInline
enum ThreadSanitizer {
    @usableFromInline
    typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

    @usableFromInline
    static let acquire: Annotation? = lookUp("__tsan_acquire")
    @usableFromInline
    static let release: Annotation? = lookUp("__tsan_release")

    private static func lookUp(_ name: String) -> Annotation? {
        #if canImport(Darwin)
        let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
        let handle: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #endif
        return dlsym(handle, name).map { unsafeBitCast($0, to: Annotation.self) }
    }
}

extension Mutex {
    /// `withLock`, announcing the critical section to ThreadSanitizer under `owner`'s address
    /// (the object that holds this mutex).
    @inlinable
    func withLock<R: Sendable>(annotating owner: AnyObject, _ body: (inout Value) throws -> R) rethrows -> R {
        try withLock { (value: inout sending Value) -> R in
            let address = Unmanaged.passUnretained(owner).toOpaque()
            ThreadSanitizer.acquire?(address)
            defer { ThreadSanitizer.release?(address) }
            return try body(&value)
        }
    }
}
