/// What a pending promise reaches when it is cancelled, paused or resumed: the configuration of the
/// work it runs, the upstream promise whose step is running for it, or a combinator's inputs.
///
/// Each link acts on itself only and returns the link it waits for; ``cancelWork()``,
/// ``pauseWork()`` and ``resumeWork()`` walk the chain in a loop, so that cancelling the last
/// promise of a chain of any length never deepens the stack.
@usableFromInline
package protocol PromiseControl: AnyObject, Sendable {
    /// Cancels this link; returns the link upstream of it, if that must be cancelled too. A
    /// promise adds itself to `deliveries`, to be delivered once every link has been cancelled
    /// (so that whoever sees the cancellation finds the work already told to stop).
    func cancelStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)?
    /// Pauses this link; returns the link upstream of it, if that must be paused too.
    func pauseStep() -> (any PromiseControl)?
    /// Resumes this link; returns the link upstream of it, if that must be resumed too. A promise
    /// with progress held back while paused adds itself to `deliveries`, to be delivered once
    /// every link, the work's resume handler included, has resumed.
    func resumeStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)?
    /// The downstream promise settled without cancelling: let go of anything held for the work.
    func release()
}

extension PromiseControl {
    /// Cancels this link and every link it waits for, then delivers the cancellations.
    @usableFromInline
    package func cancelWork() {
        var deliveries: [any Deliverable] = []
        var link: (any PromiseControl)? = self
        while let current = link { link = current.cancelStep(deferring: &deliveries) }
        for promise in deliveries { DeliveryQueue.schedule(promise) }
    }

    /// Pauses this link and every link it waits for.
    @usableFromInline
    package func pauseWork() {
        var link: (any PromiseControl)? = self
        while let current = link { link = current.pauseStep() }
    }

    /// Resumes this link and every link it waits for, then delivers the progress they held back,
    /// upstream first.
    @usableFromInline
    package func resumeWork() {
        var deliveries: [any Deliverable] = []
        var link: (any PromiseControl)? = self
        while let current = link { link = current.resumeStep(deferring: &deliveries) }
        for promise in deliveries.reversed() { DeliveryQueue.schedule(promise) }
    }
}
