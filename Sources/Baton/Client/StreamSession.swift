import BatonLocking
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One streamed call: its connections (the first, and any reconnection), the elements cut from
/// their bodies, decoded and handed to a reader, and the promise that settles when it ends.
///
/// Each connection is a ``Call`` of its own, so it goes through the adapters (a refreshed token),
/// validation (an error status or a wrong media type fails before any element, with the body's
/// start) and the retriers, which may send it again only until its answer is under way: after
/// that, sending it again would hand the same elements on twice. The reader is either handlers
/// (``start(each:)``: elements are handed to them one at a time, on the client's delivery queue
/// or a global one) or an async iterator (``nextElement(_:)``: it pulls them). Either way an
/// element is taken off the ``BodyStream`` only when the reader is ready for it, which is what
/// holds a transport that can wait.
final class StreamSession<Base: Endpoint>: PromiseControl, Sendable where Base.Response: Decodable & Sendable {
    typealias Element = Base.Response

    let client: Client
    let endpoint: Base
    let options: StreamOptions
    let bodyStream: BodyStream
    let promise = Promise<StreamEnd>(upstream: nil)

    private struct State {
        var connection: Promise<Void>?
        var pendingReconnection: DelayedStep?
        var isCancelled = false
        var isPaused = false
        var isDraining = false
        /// How the stream ends, once its last connection has: settled when the elements waiting
        /// have been handed on.
        var ending: Result<Void, any Error>?
        /// The stream has settled (with this failure, for a reader still pulling).
        var settled = false
        var failure: (any Error)?
        var handed = 0
        var skipped = 0
        var reconnections = 0
        /// Reconnections in a row that brought no element.
        var fruitlessReconnections = 0
        var handedAtLastConnection = 0
        /// The continuation of a waiting ``nextElement(_:)``.
        var waiter: (@Sendable (Result<Element?, any Error>) -> Void)?
    }

    private let state = Lock(State())
    /// Paused and cancelled, as the drain asks before each element: apart from `state`, so
    /// that asking costs a lock and no look-up of a generic type's metadata.
    private let flags = Lock(ReaderFlags())
    /// Who elements are handed to, in the promise style; `nil` for an async iterator, which pulls.
    private let handler: (@Sendable (Element) -> Void)?
    /// How an element becomes an `Element`, decided once.
    private let kind = StreamElementDecoding.Kind(of: Element.self)
    /// Elements taken off the stream, being handed on.
    private let reading = ReadingBuffer()
    /// The endpoint's decoder, or the client's.
    private let decoder: JSONDecoder

    init(client: Client, endpoint: Base, format: StreamFormat, options: StreamOptions, handler: (@Sendable (Element) -> Void)? = nil) {
        self.client = client
        self.handler = handler
        decoder = endpoint.decoder ?? client.configuration.decoder
        self.endpoint = endpoint
        self.options = options
        bodyStream = BodyStream(format: format, maximumElementSize: max(1, options.maximumElementSize))
        promise.wait(for: self)
    }

    // MARK: Starting

    /// Starts the stream, handing each element to the handler.
    func start() -> Promise<StreamEnd> {
        // Elements are handed on where they arrive (the transport's thread), as a small answer's
        // handlers run there: no thread hop an element, and a slow handler holds the reading.
        bodyStream.whenElementsArrive { [weak self] in self?.drain(here: true) }
        connect(lastEventID: "")
        return promise
    }

    /// Starts the stream for an async iterator, which pulls elements with ``nextElement(_:)``.
    func startPulling() {
        bodyStream.whenElementsArrive { [weak self] in self?.wakeWaiter() }
        connect(lastEventID: "")
    }

    private func connect(lastEventID: String) {
        let accepted = bodyStream.acceptedAnswers
        let bodyStream = self.bodyStream
        let call = Call(
            client: client, endpoint: StreamedBody(base: endpoint, bodyStream: bodyStream, lastEventID: lastEventID, acceptedBefore: accepted),
            mayRetry: { bodyStream.acceptedAnswers == accepted }, hasDeadline: false
        ) { _, _ in }.start()
        let cancelled = state.withLock(annotating: self) { state in
            state.connection = call
            state.pendingReconnection = nil
            state.handedAtLastConnection = state.handed
            return state.isCancelled
        }
        if cancelled { return call.cancel() }
        call.then { [self] result in connectionEnded(result) }
    }

    // MARK: A connection's end

    private func connectionEnded(_ result: Result<Void, any Error>) {
        if state.withLock(annotating: self, { $0.isCancelled }) { return }
        if let tooLarge = bodyStream.failure {
            return end(.failure(APIError.elementTooLarge(summary, element: bodyStream.format.elementName, limit: tooLarge.limit)))
        }
        switch result {
        case .success:
            end(.success(()))
        case .failure(let error):
            guard let delay = reconnectionDelay(after: error) else { return end(.failure(error)) }
            let lastEventID = bodyStream.lastEventID
            let step = DelayedStep(after: delay) { [self] in connect(lastEventID: lastEventID) }
            let cancelled = state.withLock(annotating: self) { state in
                state.reconnections += 1
                state.pendingReconnection = step
                return state.isCancelled
            }
            if cancelled { step.cancelWork() }
        }
    }

    /// The wait before reconnecting after `error`, or `nil` when the stream fails instead: not
    /// set to reconnect, not server-sent events, an error that is the server's answer (a status,
    /// a media type) rather than a dropped connection, or too many reconnections for nothing.
    private func reconnectionDelay(after error: any Error) -> Duration? {
        guard options.reconnects, bodyStream.format == .serverSentEvents,
              let error = error as? APIError, error.kind == .transport else { return nil }
        return state.withLock(annotating: self) { state -> Duration? in
            state.fruitlessReconnections = state.handed > state.handedAtLastConnection ? 0 : state.fruitlessReconnections + 1
            guard state.fruitlessReconnections <= options.maximumReconnections else { return nil }
            return bodyStream.retryDelay ?? options.reconnectionDelay
        }
    }

    /// The request, for sentences.
    var summary: RequestSummary {
        (try? client.builder.prepare(endpoint).summary) ?? RequestSummary(method: endpoint.method, url: nil, path: "\(endpoint.path)")
    }

    // MARK: Handing elements on

    /// Takes elements off the stream until one decodes to hand on, into `element`; returns
    /// `false` when none waits, or when one failed the stream (`failure` says why). Only the
    /// reader calls it (the one drain, or the iterator's one pending `next`). Written without a
    /// generic result type: code generic over the element looks such types up on every call.
    private func takeNext(into element: inout Element?, failure: inout (any Error)?) -> Bool {
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
    private func undecodable(_ element: String, reason: StreamElementDecoding.Failure, bytes: Data) -> APIError? {
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
    private func drain(here: Bool = false) {
        let starts = state.withLock(annotating: self) { state -> Bool in
            guard !state.isDraining, !state.isPaused, !state.isCancelled, handler != nil else { return false }
            state.isDraining = true
            return true
        }
        guard starts else { return }
        let work: @Sendable () -> Void = { [self] in
            var failure: (any Error)?
            var handed = 0
            var element: Element?
            while let handler, flags.withLock(annotating: self, { !$0.isPaused && !$0.isCancelled }),
                  takeNext(into: &element, failure: &failure), let taken = element {
                handed += 1
                handler(taken)
            }
            state.withLock(annotating: self) { $0.handed += handed }
            if let failure {
                state.withLock(annotating: self) { $0.isDraining = false }
                return fail(failure)
            }
            // Still the reader: the buffer is this drain's to look at.
            let handedOn = !hasWaiting
            if handedOn { settleIfEnded() }
            state.withLock(annotating: self) { $0.isDraining = false }
            // Elements that came while this drain was ending found it running: go on for them.
            if !handedOn || bodyStream.hasWaiting { drain() }
        }
        if let queue = client.configuration.deliveryQueue {
            queue.async(execute: work)
        } else if here {
            work()
        } else {
            DispatchQueue.global().async(execute: work)
        }
    }

    /// Whether elements wait to be handed on: taken off the stream already, or not yet. Only
    /// the reader asks.
    private var hasWaiting: Bool { reading.batch.hasMore || bodyStream.hasWaiting }

    /// The last connection ended: the stream settles as `ending` says once the elements
    /// received before it have been handed on, which the reader sees to.
    private func end(_ ending: Result<Void, any Error>) {
        state.withLock(annotating: self) { $0.ending = ending }
        if handler != nil { drain() } else { wakeWaiter() }
    }

    /// Settles the stream as its last connection's end says, if it has ended. Only the reader
    /// calls it, once every element was handed on.
    private func settleIfEnded() {
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

    private func fail(_ error: any Error) {
        bodyStream.close()
        let (waiter, connection) = state.withLock(annotating: self) { state in
            state.failure = error
            state.settled = true
            defer { state.waiter = nil }
            return (state.waiter, state.connection)
        }
        connection?.cancel()
        waiter?(.failure(error))
        settle(.failure(error))
    }

    private func settle(_ result: Result<StreamEnd, any Error>) {
        if let queue = client.configuration.deliveryQueue {
            queue.async { [promise] in _ = promise.settle(result) }
        } else {
            _ = promise.settle(result)
        }
    }

    // MARK: Pulling (async iteration)

    /// Hands `completion` the next element, `nil` at the end of the stream, or its failure: at
    /// once if one waits, else when one arrives. One call at a time: the caller is the reader.
    func nextElement(_ completion: @escaping @Sendable (Result<Element?, any Error>) -> Void) {
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
        let immediate = state.withLock(annotating: self) { state -> Result<Element?, any Error>? in
            if let failure = state.failure { return .failure(failure) }
            if state.isCancelled { return .failure(CancellationError()) }
            if state.settled { return .success(nil) }
            state.waiter = completion
            return nil
        }
        if let immediate { return completion(immediate) }
        // Elements that came between the look and the wait found no waiter: wake it for them.
        if bodyStream.hasWaiting { wakeWaiter() }
    }

    /// Hands the waiting `next`, if there is one, to ``nextElement(_:)`` again: elements came,
    /// or the stream ended.
    private func wakeWaiter() {
        let waiter = state.withLock(annotating: self) { state in
            defer { state.waiter = nil }
            return state.waiter
        }
        if let waiter { nextElement(waiter) }
    }

    // MARK: What the promise reaches

    func cancelStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        let (connection, reconnection, waiter) = state.withLock(annotating: self) { state in
            state.isCancelled = true
            defer { state.waiter = nil }
            flags.withLock(annotating: self) { $0.isCancelled = true }
            return (state.connection, state.pendingReconnection, state.waiter)
        }
        bodyStream.close()
        reconnection?.cancelWork()
        waiter?(.failure(CancellationError()))
        return connection
    }

    func pauseStep() -> (any PromiseControl)? {
        state.withLock(annotating: self) { state in
            state.isPaused = true
            flags.withLock(annotating: self) { $0.isPaused = true }
            return state.connection
        }
    }

    func resumeStep(deferring deliveries: inout [any Deliverable]) -> (any PromiseControl)? {
        let connection = state.withLock(annotating: self) { state in
            state.isPaused = false
            flags.withLock(annotating: self) { $0.isPaused = false }
            return state.connection
        }
        drain()
        return connection
    }

    func release() {}

    /// Stops the stream: the reader has gone (an async loop broken out of, its task cancelled).
    func cancel() {
        promise.cancel()
    }
}

/// The elements a stream's reader took off its ``BodyStream`` in one go, and how far it has
/// handed them on.
// Not locked: only the stream's one reader touches it, the drain that holds `isDraining` or
// the iterator's one pending `next`, and each hands over to the next through the session's lock.
final class ReadingBuffer: @unchecked Sendable {
    var batch = Batch()

    struct Batch {
        private var elements: [StreamedElement] = []
        private var index = 0
        /// Events seen so far, for a decoding failure's sentence.
        private var eventNumber = 0

        /// Whether elements taken remain to be handed on.
        var hasMore: Bool { index < elements.count }

        /// The next element, with its event number, taking what waits on `stream` when this
        /// batch is done; `nil` when nothing waits.
        mutating func next(refillingFrom stream: BodyStream) -> (StreamedElement, Int)? {
            if index == elements.count {
                elements = stream.takeAll()
                index = 0
                if elements.isEmpty { return nil }
            }
            let element = elements[index]
            index += 1
            if case .event = element { eventNumber += 1 }
            return (element, eventNumber)
        }
    }
}

/// What a stream's drain asks before each element.
struct ReaderFlags {
    var isPaused = false
    var isCancelled = false
}
