import BatonSupport
import Dispatch
import Foundation

/// Drives a closed-loop load: `concurrency` workers, each starting its next call as soon as its
/// previous one finishes, until `requests` calls have been made.
enum LoadDriver {
    /// Calls per second. `call` starts one call and must invoke its argument exactly once, when
    /// that call has finished.
    static func requestsPerSecond(
        requests: Int, concurrency: Int,
        call: @escaping @Sendable (_ done: @escaping @Sendable () -> Void) -> Void
    ) -> Double {
        let remaining = WorkCounter(requests)
        let group = DispatchGroup()
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<min(concurrency, requests) {
            group.enter()
            @Sendable func next() {
                guard remaining.take() else { return group.leave() }
                call(next)
            }
            next()
        }
        group.wait()
        return Double(requests) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
}

/// A count shared by the workers of one measurement.
final class WorkCounter: Sendable {
    private let count: Locked<Int>

    init(_ count: Int) { self.count = Locked(count) }

    var value: Int { count.value }

    /// Takes one unit of work; false when none is left.
    func take() -> Bool {
        count.withLock { count in
            guard count > 0 else { return false }
            count -= 1
            return true
        }
    }

    func add() {
        count.withLock { $0 += 1 }
    }
}
