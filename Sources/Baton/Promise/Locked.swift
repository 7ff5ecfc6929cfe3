import Synchronization

/// A value behind a mutex, as a class so that escaping closures (the handlers of a combinator's
/// inputs) can share it. `Mutex` itself cannot be captured: it is not copyable.
final class Locked<State>: Sendable {
    private let mutex: Mutex<State>

    init(_ state: sending State) {
        mutex = Mutex(state)
    }

    func withLock<R: Sendable>(_ body: (inout State) throws -> R) rethrows -> R {
        try mutex.withLock(annotating: self, body)
    }
}
