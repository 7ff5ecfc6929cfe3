/// The inputs of a combinator, cancelled, paused and resumed together through the combined
/// promise.
package final class PromiseGroup: PromiseControl {
    private let members: [any PromiseControl]

    package init(_ members: [any PromiseControl]) {
        self.members = members
    }

    @usableFromInline package func cancelStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        members.forEach { $0.cancelWork() }
        return nil
    }

    @usableFromInline package func pauseStep() -> (any PromiseControl)? {
        members.forEach { $0.pauseWork() }
        return nil
    }

    @usableFromInline package func resumeStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        members.forEach { $0.resumeWork() }
        return nil
    }

    @usableFromInline package func release() {}
}
