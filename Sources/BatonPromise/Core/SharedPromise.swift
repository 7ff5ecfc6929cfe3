import BatonSupport

/// One piece of work that many callers wait for, each through a promise of its own, so that one
/// caller giving up does not stop the work for the others.
///
/// Cancelling a promise cancels the step it waits for, for every chain that shares it (see
/// ``Promise``). That is wrong when independent callers wait for the same work, such as a token
/// refresh or an image download: a screen that goes away must not cancel the download for the
/// screen that stays. A shared promise hands each caller a *share* instead:
/// - Each share settles as the work does and reports its progress.
/// - Cancelling a share settles that share alone as cancelled. The work is cancelled only when
///   every share handed out so far has been cancelled.
/// - Pausing or resuming a share does not pause or resume the work, which others may be waiting for.
/// - A share taken after the work settled settles at once the same way, cancelled included:
///   check ``isCancelled`` and start the work anew if you need its value.
///
/// ```
/// let download = SharedPromise(client.send(Image.get(id)))
/// let forHeader = download.share()
/// let forList = download.share()
/// forHeader.cancel()   // forList still gets the image
/// ```
package final class SharedPromise<Value: Sendable>: Sendable {
    private let work: Promise<Value>
    private let shares = Lock(Shares())

    /// Shares `work`. Hold on to the shared promise, not to `work`: cancelling `work` directly
    /// cancels it for every share.
    package init(_ work: Promise<Value>) {
        self.work = work
    }

    /// A new promise that settles as the work does, with the work's progress, and whose
    /// cancellation cancels the work only if every other share has been cancelled too.
    package func share() -> Promise<Value> {
        shares.withLock(annotating: self) { $0.open += 1 }
        return makeShare()
    }

    /// A share, unless the work was cancelled already (every share was): the check and the
    /// joining are one step, so that a share never joins work being cancelled under it.
    package func shareIfRunning() -> Promise<Value>? {
        let joined: Bool = shares.withLock(annotating: self) { shares in
            guard !shares.cancelledWork else { return false }
            shares.open += 1
            return true
        }
        return joined ? makeShare() : nil
    }

    /// A new share of the work, counted already.
    private func makeShare() -> Promise<Value> {
        let share = Promise<Value>(upstream: ShareLink(self))
        work.subscribe { event in
            switch event {
            case .progress(let progress): share.report(progress)
            case .settled(let outcome): share.settle(outcome)
            }
        }
        return share
    }

    /// Whether the work was cancelled because every share was.
    package var isCancelled: Bool {
        shares.withLock(annotating: self) { $0.cancelledWork }
    }

    /// A share settled (`cancelled` says how): returns the work to cancel if it was the last one
    /// still wanting it.
    fileprivate func close(cancelled: Bool) -> Promise<Value>? {
        let last: Bool = shares.withLock(annotating: self) { shares in
            shares.open -= 1
            guard cancelled, shares.open == 0, !shares.cancelledWork else { return false }
            shares.cancelledWork = true
            return true
        }
        return last ? work : nil
    }
}

/// What a ``SharedPromise`` counts of its shares.
private struct Shares {
    /// Shares handed out that have not settled.
    package var open = 0
    /// Whether the last share's cancellation cancelled the work.
    package var cancelledWork = false
}

/// The upstream link of one share: cancelling it closes the share, and walks on to the shared
/// work only when that was the last share wanting it.
private final class ShareLink<Value: Sendable>: PromiseControl {
    private let owner: SharedPromise<Value>
    /// Whether this share was closed already: a link closes its share once, whichever of cancel
    /// and release comes first.
    private let closed = Lock(false)

    package init(_ owner: SharedPromise<Value>) {
        self.owner = owner
    }

    private func close(cancelled: Bool) -> Promise<Value>? {
        let first: Bool = closed.withLock(annotating: self) { closed in
            defer { closed = true }
            return !closed
        }
        return first ? owner.close(cancelled: cancelled) : nil
    }

    package func cancelStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        close(cancelled: true)
    }

    package func pauseStep() -> (any PromiseControl)? { nil }

    package func resumeStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? { nil }

    package func release() {
        _ = close(cancelled: false)
    }
}
