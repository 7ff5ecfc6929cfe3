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

/// The inputs of a combinator, cancelled, paused and resumed together through the combined
/// promise.
final class PromiseGroup: PromiseControl {
    private let members: [any PromiseControl]

    init(_ members: [any PromiseControl]) {
        self.members = members
    }

    @usableFromInline func cancelStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        members.forEach { $0.cancelWork() }
        return nil
    }

    @usableFromInline func pauseStep() -> (any PromiseControl)? {
        members.forEach { $0.pauseWork() }
        return nil
    }

    @usableFromInline func resumeStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        members.forEach { $0.resumeWork() }
        return nil
    }

    @usableFromInline func release() {}
}
