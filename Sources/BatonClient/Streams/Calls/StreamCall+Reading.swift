import BatonSupport
import BatonPromise
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Handing a stream's elements on: to handlers as they arrive, or to an async iterator that pulls
/// them; and settling the stream once they all were.
extension StreamCall {
    // MARK: Handing elements on

    /// Takes elements off the stream until one decodes to hand on, into `element`; returns
    /// `false` when none waits, or when one failed the stream (`failure` says why). Only the
    /// reader calls it (the one drain, or the iterator's one pending `next`). Written without a
    /// generic result type: code generic over the element looks such types up on every call.
    func takeNext(into element: inout Element?, failure: inout (any Error)?) -> Bool {
        while true {
            // One access to the buffer an element: each costs a run-time exclusivity check.
            guard let (raw, eventNumber) = reading.batch.next(refillingFrom: bodyStream) else { return false }
            var reason: StreamElementDecoding.Failure?
            switch raw {
            case .retry:
                continue
            case .event(let event):
                if let type = options.eventType, event.type != type { continue }
                element = StreamElementDecoding.decode(Element.self, kind, event: event, with: decoder, failure: &reason)
                if let reason, let failed = undecodable("event \(eventNumber)", reason: reason, bytes: Data(event.data.utf8)) {
                    failure = failed
                    return false
                }
            case .line(let data, let number):
                element = StreamElementDecoding.decode(Element.self, json: data, with: decoder, failure: &reason)
                if let reason, let failed = undecodable("line \(number)", reason: reason, bytes: data) {
                    failure = failed
                    return false
                }
            }
            if reason == nil { return true }
        }
    }

    /// An element that does not decode: counted and passed over (`nil`), or the stream's failure.
    func undecodable(_ element: String, reason: StreamElementDecoding.Failure, bytes: Data) -> APIError? {
        if options.skipsUndecodableElements {
            state.withLock(annotating: self) { $0.skipped += 1 }
            return nil
        }
        let response = HTTPResponse(statusCode: 200, body: bytes)
        return APIError.decodingFailed(summary, response, type: String(describing: Element.self), codingPath: reason.codingPath,
                                       reason: "\(element): \(reason.reason)")
    }

    /// Hands waiting elements to the handler, one at a time: on the client's delivery queue if it
    /// has one, else `here` (on the calling thread: the transport's, as elements arrive) or on a
    /// global queue. One drain runs at a time: it is the stream's reader while it runs.
    func drain(here: Bool = false) {
        let starts = state.withLock(annotating: self) { state -> Bool in
            guard !state.isDraining, !state.isPaused, !state.isCancelled, !state.settled, handler != nil else { return false }
            state.isDraining = true
            return true
        }
        guard starts else { return }
        let work: @Sendable () -> Void = { [self] in
            var failure: (any Error)?
            var handed = 0
            var element: Element?
            if let eventHandler { handed += handOnEvents(to: eventHandler) }
            while let handler, control?.isStopped != true, flags.withLock(annotating: self, { !$0.isPaused && !$0.isCancelled }),
                  takeNext(into: &element, failure: &failure), let taken = element {
                handed += 1
                handler(taken)
            }
            state.withLock(annotating: self) { $0.handed += handed }
            if control?.isStopped == true { return stopAsHandlerAsked() }
            if let failure {
                // Settled before the drain is given up: no other drain may start and fail again
                // on a later element, naming it instead.
                fail(failure)
                return state.withLock(annotating: self) { $0.isDraining = false }
            }
            // Still the reader: the buffer is this drain's to look at.
            let handedOn = !hasWaiting
            if handedOn { settleIfEnded() }
            // The last connection may have ended after the look above, its own drain refused
            // while this one ran: then look again.
            let ended = state.withLock(annotating: self) { state in
                state.isDraining = false
                return state.ending != nil && !state.settled && !state.isCancelled
            }
            // Elements that came while this drain was ending found it running: go on for them.
            if ended || !handedOn || bodyStream.hasWaiting { drain() }
        }
        if let queue = context.deliveryQueue {
            queue.async(execute: work)
        } else if here {
            work()
        } else {
            DispatchQueue.global().async(execute: work)
        }
    }

    /// Hands raw events on to `handle` (the handler, when the elements are events themselves)
    /// until none waits or the stream is paused or cancelled: the common case of a feed, kept
    /// free of generic code, whose every copy of an element goes through its type's witnesses.
    private func handOnEvents(to handle: @Sendable (ServerSentEvent) -> Void) -> Int {
        var handed = 0
        while control?.isStopped != true, flags.withLock(annotating: self, { !$0.isPaused && !$0.isCancelled }),
              let (raw, _) = reading.batch.next(refillingFrom: bodyStream) {
            guard case .event(let event) = raw else { continue }
            if let type = options.eventType, event.type != type { continue }
            handed += 1
            handle(event)
        }
        return handed
    }

    /// Whether elements wait to be handed on: taken off the stream already, or not yet. Only
    /// the reader asks.
    var hasWaiting: Bool { reading.batch.hasMore || bodyStream.hasWaiting }

    /// The last connection ended: the stream settles as `ending` says once the elements
    /// received before it have been handed on, which the reader sees to.
    func end(_ ending: Result<Void, any Error>) {
        state.withLock(annotating: self) { $0.ending = ending }
        if handler != nil { drain() } else { wakeWaiter() }
    }

    /// Settles the stream as its last connection's end says, if it has ended. Only the reader
    /// calls it, once every element was handed on.
    func settleIfEnded() {
        let ending = state.withLock(annotating: self) { state -> Result<Void, any Error>? in
            guard !state.isCancelled, !state.settled else { return nil }
            return state.ending
        }
        switch ending {
        case nil: return
        case .failure(let error): fail(error)
        case .success:
            let end = state.withLock(annotating: self) { state -> StreamEnd? in
                guard !state.settled else { return nil }
                state.settled = true
                return StreamEnd(elements: state.handed, skipped: state.skipped, reconnections: state.reconnections, lastEventID: bodyStream.lastEventID)
            }
            guard let end else { return }
            bodyStream.close()
            settle(.success(end))
        }
    }

    /// The handler stopped the stream: it ends here, fulfilled, whatever the connection was doing.
    /// Only the drain calls it, as it gives up being the reader.
    private func stopAsHandlerAsked() {
        let stopped = state.withLock(annotating: self) { state -> (StreamEnd, Promise<Void>?, DelayedStep?)? in
            state.isDraining = false
            guard !state.settled, !state.isCancelled else { return nil }
            state.settled = true
            defer { state.pendingReconnection = nil }
            // The last event handed on, not the last received: a resumption from it (its
            // `Last-Event-ID`) must not skip the events read ahead.
            var end = StreamEnd(elements: state.handed, skipped: state.skipped, reconnections: state.reconnections, lastEventID: reading.batch.lastEventIDTaken)
            end.wasStopped = true
            return (end, state.connection, state.pendingReconnection)
        }
        guard let (end, connection, reconnection) = stopped else { return }
        bodyStream.close()
        reconnection?.cancelWork()
        connection?.cancel()
        settle(.success(end))
    }

    func fail(_ error: any Error) {
        bodyStream.close()
        let (waiter, connection, reconnection) = state.withLock(annotating: self) { state in
            state.failure = error
            state.settled = true
            defer {
                state.waiter = nil
                state.pendingReconnection = nil
            }
            return (state.waiter, state.connection, state.pendingReconnection)
        }
        // A reconnection waiting its delay would send a request for a stream that is over.
        reconnection?.cancelWork()
        connection?.cancel()
        waiter?(.failure(error))
        settle(.failure(error))
    }

    func settle(_ result: Result<StreamEnd, any Error>) {
        if let queue = context.deliveryQueue {
            queue.async { [promise] in _ = promise.settle(result) }
        } else {
            _ = promise.settle(result)
        }
    }

    // MARK: Pulling (async iteration)

    /// Hands `completion` the next element, `nil` at the end of the stream, or its failure: at
    /// once if one waits, else when one arrives. One call at a time: the caller is the reader.
    func nextElement(_ completion: @escaping @Sendable (Result<Element?, any Error>) -> Void) {
        if flags.withLock(annotating: self, { $0.isCancelled }) { return completion(.failure(CancellationError())) }
        var element: Element?
        var failure: (any Error)?
        if takeNext(into: &element, failure: &failure), let element {
            state.withLock(annotating: self) { $0.handed += 1 }
            return completion(.success(element))
        }
        if let failure {
            fail(failure)
            return completion(.failure(failure))
        }
        // Everything received was handed on: the stream may have ended.
        settleIfEnded()
        // `.some(nil)`: the last connection ended after the look above; look again, to settle.
        let immediate = state.withLock(annotating: self) { state -> Result<Element?, any Error>?? in
            if let failure = state.failure { return .some(.failure(failure)) }
            if state.isCancelled { return .some(.failure(CancellationError())) }
            if state.settled { return .some(.success(nil)) }
            if state.ending != nil { return .some(nil) }
            state.waiter = completion
            return nil
        }
        switch immediate {
        case .some(.some(let result)): return completion(result)
        case .some(.none): return nextElement(completion)
        case .none: break
        }
        // Elements that came between the look and the wait found no waiter: wake it for them.
        if bodyStream.hasWaiting { wakeWaiter() }
    }

    /// Hands the waiting `next`, if there is one, to ``nextElement(_:)`` again: elements came,
    /// or the stream ended.
    func wakeWaiter() {
        let waiter = state.withLock(annotating: self) { state in
            defer { state.waiter = nil }
            return state.waiter
        }
        if let waiter { nextElement(waiter) }
    }
}
