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
