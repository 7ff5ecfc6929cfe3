import BatonSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise

/// One streamed call: its connections (the first, and any reconnection), the elements cut from
/// their bodies, decoded and handed to a reader, and the promise that settles when it ends.
///
/// Each connection is a ``Call`` of its own, so it goes through the adapters (a refreshed token),
/// validation (an error status or a wrong media type fails before any element, with the body's
/// start) and the retriers, which may send it again only until its response is under way: after
/// that, sending it again would hand the same elements on twice. The reader is either handlers
/// (``start(each:)``: elements are handed to them one at a time, on the client's delivery queue
/// or a global one) or an async iterator (``nextElement(_:)``: it pulls them). Either way an
/// element is taken off the ``BodyStream`` only when the reader is ready for it, which is what
/// holds a transport that can wait.
final class StreamCall<Base: Endpoint>: PromiseControl, Sendable where Base.Response: Decodable & Sendable {
    typealias Element = Base.Response

    let context: CallContext
    let endpoint: Base
    let options: StreamOptions
    let bodyStream: BodyStream
    let promise = Promise<StreamEnd>(upstream: nil)

    struct State {
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
        /// Elements received when the last connection began, and responses accepted then.
        var receivedAtConnection = 0
        var acceptedAtConnection = 0
        /// The continuation of a waiting ``nextElement(_:)``.
        var waiter: (@Sendable (Result<Element?, any Error>) -> Void)?
    }

    let state = Lock(State())
    /// Paused and cancelled, as the drain asks before each element: apart from `state`, so
    /// that asking costs a lock and no look-up of a generic type's metadata.
    let flags = Lock(ReaderFlags())
    /// Who elements are handed to, in the promise style; `nil` for an async iterator, which pulls.
    let handler: (@Sendable (Element) -> Void)?
    /// The handler, when elements are raw events: called without generic code in between.
    let eventHandler: (@Sendable (ServerSentEvent) -> Void)?
    /// How an element becomes an `Element`, decided once.
    let kind = StreamElementDecoding.Kind(of: Element.self)
    /// Elements taken off the stream, being handed on.
    let reading = ReadingBuffer()
    /// The endpoint's decoder, or the client's.
    let decoder: JSONDecoder

    /// What the handler stops the stream with; `nil` when it cannot.
    let control: StreamControl?

    init(
        context: CallContext, endpoint: Base, format: StreamFormat, options: StreamOptions, handler: (@Sendable (Element) -> Void)? = nil,
        control: StreamControl? = nil
    ) {
        self.context = context
        self.handler = handler
        self.control = control
        // A dynamic cast, once, so that the closure is re-abstracted as it must be.
        eventHandler = handler as? @Sendable (ServerSentEvent) -> Void
        decoder = endpoint.decoder ?? context.decoder
        self.endpoint = endpoint
        self.options = options
        bodyStream = BodyStream(format: format, maximumElementSize: max(1, options.maximumElementSize))
        promise.wait(for: self)
    }

    /// A stream whose handler is handed the stream's control with each element, to stop it.
    convenience init(
        context: CallContext, endpoint: Base, format: StreamFormat, options: StreamOptions,
        stoppable each: @escaping @Sendable (Element, StreamControl) -> Void
    ) {
        let control = StreamControl()
        self.init(context: context, endpoint: endpoint, format: format, options: options, handler: { each($0, control) }, control: control)
    }

    // MARK: Starting

    /// Starts the stream, handing each element to the handler.
    func start() -> Promise<StreamEnd> {
        // Elements are handed on where they arrive (the transport's thread), as a small response's
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

    func connect(lastEventID: String) {
        // Counted before the call starts: a quick transport may hand elements on at once.
        let accepted = bodyStream.acceptedResponses
        let received = bodyStream.elementsReceived
        let bodyStream = self.bodyStream
        let destination = StreamConnection.destination(
            for: bodyStream, lastEventID: lastEventID, acceptedBefore: accepted, endpointNamesAccept: endpoint.headers["Accept"] != nil
        )
        let call = Call(
            context: context, endpoint: endpoint, product: .destination(destination),
            mayRetry: { bodyStream.acceptedResponses == accepted }, hasDeadline: false
        ).start()
        let (over, paused) = state.withLock(annotating: self) { state in
            state.connection = call
            state.pendingReconnection = nil
            state.receivedAtConnection = received
            state.acceptedAtConnection = accepted
            return (state.isCancelled || state.settled, state.isPaused)
        }
        if over { return call.cancel() }
        // A reconnection made while the stream is paused starts paused too.
        if paused { call.pause() }
        call.then { [self] result in connectionEnded(result) }
    }

    // MARK: A connection's end

    func connectionEnded(_ result: Result<Void, any Error>) {
        if state.withLock(annotating: self, { $0.isCancelled || $0.settled }) { return }
        if let tooLarge = bodyStream.failure {
            return end(.failure(APIError.elementTooLarge(summary, element: bodyStream.format.elementName, limit: tooLarge.limit)))
        }
        var result = result
        if case .success = result, bodyStream.takeCut() {
            // The connection closed inside an element, with no length or chunking to say the body
            // was whole: a drop like any other cut, reconnected when asked, never a clean end.
            result = .failure(APIError.transport(summary, URLError(.networkConnectionLost, detail:
                "the connection closed inside \(bodyStream.format == .serverSentEvents ? "an event" : "a line"), and nothing "
                    + "(no Content-Length, no chunked coding) said the stream was whole: it was cut")))
        }
        switch result {
        case .success:
            end(.success(()))
        case .failure(let error):
            guard let delay = reconnectionDelay(after: error) else { return end(.failure(cutOff(error))) }
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

    /// `error`, said as a cut when the connection's response was under way: what came was handed
    /// on, so "failed before a response arrived" would not be true.
    private func cutOff(_ error: any Error) -> any Error {
        guard let error = error as? APIError, error.kind == .transport, let urlError = error.urlError else { return error }
        let (receivedAtConnection, acceptedAtConnection) = state.withLock(annotating: self) { ($0.receivedAtConnection, $0.acceptedAtConnection) }
        guard bodyStream.acceptedResponses > acceptedAtConnection else { return error }
        let count = bodyStream.elementsReceived - receivedAtConnection
        let element = bodyStream.format == .serverSentEvents ? "event" : "line"
        return APIError.transport(error.request, urlError, cutAfter: "\(count) \(element)\(count == 1 ? "" : "s")")
    }

    /// The wait before reconnecting after `error`, or `nil` when the stream fails instead: not
    /// set to reconnect, not server-sent events, an error that is the server's response (a status,
    /// a media type) rather than a dropped connection, or too many reconnections for nothing.
    func reconnectionDelay(after error: any Error) -> Duration? {
        guard options.reconnects, bodyStream.format == .serverSentEvents,
              let error = error as? APIError, error.kind == .transport else { return nil }
        return state.withLock(annotating: self) { state -> Duration? in
            state.fruitlessReconnections = bodyStream.elementsReceived > state.receivedAtConnection ? 0 : state.fruitlessReconnections + 1
            guard state.fruitlessReconnections <= options.maximumReconnections else { return nil }
            return bodyStream.retryDelay ?? options.reconnectionDelay
        }
    }

    /// The request, for sentences.
    var summary: RequestSummary {
        (try? context.builder.prepare(endpoint).summary) ?? RequestSummary(method: endpoint.method, url: nil, path: "\(endpoint.path)")
    }
}
