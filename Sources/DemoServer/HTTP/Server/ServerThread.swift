#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A joinable POSIX thread running one closure.
///
/// The server uses these rather than Dispatch because each connection blocks in `poll` for as long
/// as its client is slow, which would starve Dispatch's pool; and because `join` lets `stop()`
/// promise that every thread has really ended, not merely been asked to.
// Not a lock: the handle is written once by `pthread_create` before the value escapes, and is
// joined exactly once by its single owner (the server or the connection registry); no other
// access exists.
struct ServerThread: @unchecked Sendable {
    private let handle: pthread_t

    /// Starts `body` on a new thread with a fixed 2 MiB stack (the Darwin default of 512 KiB is
    /// small for a debug build's frames; the Linux default of 8 MiB is more than needed).
    static func start(_ body: @escaping @Sendable () -> Void) throws(DemoServerError) -> ServerThread {
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, 2 << 20)
        #if canImport(Glibc)
        var handle = pthread_t()
        #else
        var handle: pthread_t?
        #endif
        let result = pthread_create(&handle, &attributes, { raw in
            // `raw` is optional on Glibc and not on Darwin; the cast makes one spelling fit both.
            guard let raw = raw as UnsafeMutableRawPointer? else { return nil }
            Unmanaged<Box>.fromOpaque(raw).takeRetainedValue().body()
            return nil
        }, box)
        #if canImport(Glibc)
        guard result == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw DemoServerError(operation: "pthread_create", errno: result)
        }
        return ServerThread(handle: handle)
        #else
        guard result == 0, let handle else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw DemoServerError(operation: "pthread_create", errno: result)
        }
        return ServerThread(handle: handle)
        #endif
    }

    /// Waits until the thread has returned from its closure and ended.
    func join() {
        _ = pthread_join(handle, nil)
    }

    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
