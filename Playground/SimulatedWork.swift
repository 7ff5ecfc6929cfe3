import Baton
import Dispatch
import Foundation

/// Stand-ins for the HTTP calls of the source documents, for this promise-only walk-through
/// (the roadmap's playground issue moves it onto the client and the embedded DemoServer): each
/// is a promise whose work ticks on a timer, reports progress, and honours cancel, pause and
/// resume through its configuration.
enum SimulatedWork {
    struct Order: Sendable { var id: Int; var name: String }
    struct Review: Sendable { var id: Int; var content: String }
    struct Photo: Sendable { var id: Int; var bytes: Int }

    /// A transfer of `bytes` in `ticks` steps, `interval` apart, producing `value` at the end.
    static func transfer<Value: Sendable>(
        bytes: Int64, ticks: Int = 20, interval: DispatchTimeInterval = .milliseconds(15),
        producing value: @escaping @Sendable () throws -> Value
    ) -> Promise<Value> {
        Promise { progress, fulfill, reject, configure in
            let transfer = Transfer(ticks: ticks, interval: interval) { tick in
                progress(PromiseProgress(completed: bytes * Int64(tick) / Int64(ticks), total: bytes))
                guard tick == ticks else { return }
                do { fulfill(try value()) } catch { reject(error) }
            }
            configure.pause = { transfer.setPaused(true) }
            configure.resume = { transfer.setPaused(false) }
            configure.cancel = { transfer.stop() }
            transfer.scheduleNextTick()
        }
    }

    static func findOrder(named name: String) -> Promise<[Order]> {
        transfer(bytes: 2_048, ticks: 4) { [Order(id: 7, name: name)] }
    }

    static func postReview(for order: Order, content: String) -> Promise<Review> {
        transfer(bytes: 512, ticks: 4) { Review(id: 100 + order.id, content: content) }
    }

    static func uploadPhoto(number: Int, bytes: Int) -> Promise<Photo> {
        transfer(bytes: Int64(bytes), ticks: 20) { Photo(id: number, bytes: bytes) }
    }
}

/// Ticks `ticks` times on a global queue unless paused or stopped.
// `lock` guards `done`, `isPaused`, `isStopped` and `tickPending`.
private final class Transfer: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private var isPaused = false
    private var isStopped = false
    /// Whether a tick is already scheduled, so that a quick pause and resume cannot start a
    /// second chain of ticks.
    private var tickPending = false
    private let ticks: Int
    private let interval: DispatchTimeInterval
    private let onTick: @Sendable (Int) -> Void

    init(ticks: Int, interval: DispatchTimeInterval, onTick: @escaping @Sendable (Int) -> Void) {
        self.ticks = ticks
        self.interval = interval
        self.onTick = onTick
    }

    func scheduleNextTick() {
        lock.lock()
        let alreadyPending = tickPending
        tickPending = true
        lock.unlock()
        if !alreadyPending {
            DispatchQueue.global().asyncAfter(deadline: .now() + interval) { self.tick() }
        }
    }

    func setPaused(_ paused: Bool) {
        lock.lock()
        let wasPaused = isPaused
        isPaused = paused
        lock.unlock()
        if wasPaused, !paused { scheduleNextTick() }
    }

    func stop() {
        lock.lock()
        isStopped = true
        lock.unlock()
    }

    private func tick() {
        lock.lock()
        tickPending = false
        guard !isStopped, !isPaused, done < ticks else { return lock.unlock() }
        done += 1
        let current = done
        lock.unlock()
        onTick(current)
        if current < ticks { scheduleNextTick() }
    }
}
