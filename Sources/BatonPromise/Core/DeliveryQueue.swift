#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Something with events to hand to its handlers: a promise that has settled or has new progress.
@usableFromInline
package protocol Deliverable: AnyObject {
    /// Hands every outstanding event to the handlers, then returns.
    func deliver()
}

/// A per-thread trampoline that keeps nested deliveries from deepening the stack without bound.
///
/// Settling a promise runs its handlers, and a handler of a chained step settles the next promise,
/// whose handlers settle the next: done by plain calls, a chain of a million steps would need
/// millions of stack frames. So deliveries nest by plain calls only up to ``maximumDepth``; past
/// it, a delivery is queued, and the outermost delivery on the thread runs the queue in a loop
/// before it returns. The stack stays bounded whatever the chain's length, and every event is
/// still delivered before the outermost call (the fulfil, reject or cancel that started it)
/// returns. Plain calls are kept for the shallow levels because they are specialised for the
/// promise's value type, while the queue can only call through a protocol.
@usableFromInline
package final class DeliveryQueue {
    /// Deliveries nested deeper than this are queued. A few kilobytes of stack a level, so well
    /// inside the 512 KiB of a secondary thread.
    @usableFromInline package static let maximumDepth = 32

    @usableFromInline package var depth = 0
    private var waiting: [(any Deliverable)?] = []
    private var head = 0

    /// Delivers `item`'s events now, or, when deliveries are already nested deep on this thread,
    /// after the current outermost delivery.
    @inlinable
    package static func schedule(_ item: some Deliverable) {
        let queue = current
        guard queue.depth < maximumDepth else { return queue.enqueue(item) }
        queue.depth += 1
        item.deliver()
        queue.depth -= 1
        if queue.depth == 0 { queue.runWaiting() }
    }

    @usableFromInline
    package func enqueue(_ item: any Deliverable) {
        waiting.append(item)
    }

    /// Runs the queued deliveries, each starting a fresh nesting budget, until none is left.
    @usableFromInline
    package func runWaiting() {
        while head < waiting.count {
            let next = waiting[head]
            waiting[head] = nil
            head += 1
            // Keep the buffer from growing with the length of a long chain.
            if head >= 1024, head * 2 >= waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
            depth = 1
            next?.deliver()
            depth = 0
        }
        waiting.removeAll(keepingCapacity: true)
        head = 0
    }

    /// This thread's queue, made on first use and freed when the thread exits.
    @usableFromInline
    package static var current: DeliveryQueue {
        if let raw = pthread_getspecific(deliveryQueueKey) {
            return Unmanaged<DeliveryQueue>.fromOpaque(raw).takeUnretainedValue()
        }
        let queue = DeliveryQueue()
        pthread_setspecific(deliveryQueueKey, Unmanaged.passRetained(queue).toOpaque())
        return queue
    }
}

#if canImport(Darwin)
private func releaseDeliveryQueue(_ raw: UnsafeMutableRawPointer) {
    Unmanaged<DeliveryQueue>.fromOpaque(raw).release()
}
#else
private func releaseDeliveryQueue(_ raw: UnsafeMutableRawPointer?) {
    guard let raw else { return }
    Unmanaged<DeliveryQueue>.fromOpaque(raw).release()
}
#endif

private let deliveryQueueKey: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key, releaseDeliveryQueue)
    precondition(status == 0, "pthread_key_create failed (\(status)): the process is out of thread-local keys")
    return key
}()
