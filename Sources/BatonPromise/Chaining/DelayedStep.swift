import BatonSupport
import Dispatch

/// Work scheduled after a delay, as a link a promise can wait for: cancelling it drops the work
/// (and everything the work captures) at once, instead of when the timer would have fired.
package final class DelayedStep: PromiseControl {
    private let action: Locked<(@Sendable () -> Void)?>

    /// Runs `action` on a global queue after `delay`, unless cancelled first.
    package init(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
        let action = Locked<(@Sendable () -> Void)?>(action)
        self.action = action
        DispatchQueue.global().asyncAfter(deadline: .now() + delay.dispatchInterval) {
            action.withLock { slot in defer { slot = nil }; return slot }?()
        }
    }

    package func cancelStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        let dropped = action.withLock { slot in defer { slot = nil }; return slot }
        withExtendedLifetime(dropped) {}  // released here, outside the lock
        return nil
    }

    package func pauseStep() -> (any PromiseControl)? { nil }
    package func resumeStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? { nil }
    package func release() {}
}
