#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells ThreadSanitizer about the package's locks, when the program runs under it.
///
/// On Linux, `Synchronization.Mutex` waits with raw futex calls that ThreadSanitizer cannot see,
/// so it would report every access made under such a lock as a race, and a `--sanitize=thread`
/// run of any code using Baton would fail. ``Lock`` therefore also announces an acquire and a
/// release on its owner's address. The annotation functions are looked up once; in a program
/// without ThreadSanitizer they are absent and the cost is a nil check.
@usableFromInline
package enum ThreadSanitizer {
    /// The C signature of `__tsan_acquire` and `__tsan_release`.
    @usableFromInline
    package typealias Annotation = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// `__tsan_acquire` and `__tsan_release`, or `nil` when the program runs without
    /// ThreadSanitizer. One value, so that a critical section reads one global, not two.
    @usableFromInline
    package static let annotations: (acquire: Annotation, release: Annotation)? = {
        guard let acquire = lookUp("__tsan_acquire"), let release = lookUp("__tsan_release") else { return nil }
        return (acquire, release)
    }()

    private static func lookUp(_ name: String) -> Annotation? {
        #if canImport(Darwin)
        let handle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT
        #else
        let handle: UnsafeMutableRawPointer? = nil  // RTLD_DEFAULT
        #endif
        return dlsym(handle, name).map { unsafeBitCast($0, to: Annotation.self) }
    }
}
