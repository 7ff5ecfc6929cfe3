import BatonSupport
import Foundation
import BatonWire

/// Where a transport hands the body of a streamed response (``BodyDestination/stream(_:)``), piece
/// by piece as it arrives, instead of keeping it: the client cuts it into elements (server-sent
/// events, JSON lines) and hands them on to whoever reads the stream.
///
/// A transport asks ``accepts(status:headers:)`` when a response's head arrives: a `2xx` response of
/// the stream's media type is streamed here; any other response keeps its body in memory as usual,
/// so that the client can fail the call with the start of it. Then it hands each decoded piece
/// to ``receive(_:canWait:)``, in order.
///
/// Memory is bounded: no element may grow past the stream's element size limit, and elements
/// waiting for their reader are bounded too, when the transport can wait. A transport whose
/// thread can wait for the reader (``HTTP1Transport``, one thread per connection) passes
/// `canWait: true`: it is held until the reader has caught up, and TCP then holds the server
/// back. One that cannot wait (``URLSessionTransport``, whose delegate queue serves every task)
/// passes `false`, and elements queue up while the reader is slower than the server.
public final class BodyStream: Sendable {
    let format: StreamFormat
    let maximumElementSize: Int
    /// Elements waiting past this many bytes hold a transport that can wait.
    private let highWater: Int

    private struct State {
        var cutter: ElementCutter?
        var waiting: [StreamedElement] = []
        var waitingBytes = 0
        /// The reader is gone (cancelled, or the stream failed): pieces are refused.
        var closed = false
        /// Why the body could not be cut: an element past the limit.
        var failure: StreamElementTooLarge?
        /// A transport waiting for the reader to catch up.
        var producer: DispatchSemaphore?
        /// Told when elements arrive.
        var onArrival: (@Sendable () -> Void)?
        var lastEventID = ""
        /// The server's reconnection delay (`retry:`), in milliseconds, once it has sent one.
        var retry: Int?
        /// Responses accepted since the stream began: one per connection that got under way.
        var accepted = 0
        /// Elements received since the stream began.
        var received = 0
        /// The last body ended inside an element with nothing to vouch for its end: it was cut.
        var wasCut = false
    }

    private let state = Lock(State())

    init(format: StreamFormat, maximumElementSize: Int, highWater: Int = 256 << 10) {
        self.format = format
        self.maximumElementSize = maximumElementSize
        self.highWater = highWater
    }

    // MARK: The transport's side

    /// Whether the response with `status` and `headers` goes to this stream: a `2xx` response of the
    /// stream's media type, while its reader is still there. Each accepted response starts a new
    /// body (a reconnection's), cut from its start.
    public func accepts(status: Int, headers: [String: String]) -> Bool {
        guard (200..<300).contains(status) else { return false }
        let type = headers.first { WireText.equalIgnoringCase($0.key, "Content-Type") }?.value
        let media = type.flatMap { $0.split(separator: ";").first }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let media, format.mediaTypes.contains(media) else { return false }
        return state.withLock(annotating: self) { state in
            guard !state.closed else { return false }
            state.cutter = ElementCutter(format, maximumElementSize: maximumElementSize, lastEventID: state.lastEventID)
            state.accepted += 1
            return true
        }
    }

    /// Takes a piece of an accepted response's body. With `canWait`, returns only once the reader
    /// has caught up with what waits for it. `false` when the stream wants no more: its reader is
    /// gone, or an element grew past the limit; the transport then stops the transfer.
    public func receive(_ piece: UnsafeRawBufferPointer, canWait: Bool) -> Bool {
        let (taken, notify, producer) = state.withLock(annotating: self) { state -> (Bool, (@Sendable () -> Void)?, DispatchSemaphore?) in
            guard !state.closed, var cutter = state.cutter else { return (false, nil, nil) }
            state.cutter = nil
            let before = state.waiting.count
            do {
                try cutter.feed(piece) { element in Self.enqueue(element, into: &state) }
            } catch {
                state.failure = error as? StreamElementTooLarge ?? StreamElementTooLarge(limit: maximumElementSize)
                state.closed = true
            }
            state.lastEventID = cutter.lastEventID
            state.cutter = cutter
            let arrived = state.waiting.count > before ? state.onArrival : nil
            guard !state.closed else { return (false, arrived, nil) }
            guard canWait, state.waitingBytes > highWater else { return (true, arrived, nil) }
            let producer = DispatchSemaphore(value: 0)
            state.producer = producer
            return (true, arrived, producer)
        }
        notify?()
        producer?.wait()
        return taken && !isClosed
    }

    /// The end of an accepted response's body: the last element, if the format has one pending
    /// (a last JSON line without its line end).
    ///
    /// A body that `endsAtClose` (no length, no chunking: its end is the connection's close,
    /// which anyone on the path can forge or a dropped link cause) and ends inside an element is
    /// not ended but cut: its partial element is not handed on, and ``takeCut()`` says so.
    func endOfBody(endsAtClose: Bool) throws(StreamElementTooLarge) {
        let outcome = state.withLock(annotating: self) { state -> Result<(@Sendable () -> Void)?, StreamElementTooLarge> in
            guard var cutter = state.cutter else { return .success(nil) }
            state.cutter = nil
            if endsAtClose, cutter.isInsideElement, state.failure == nil {
                state.wasCut = true
                return .success(nil)
            }
            let before = state.waiting.count
            do {
                try cutter.finish { element in Self.enqueue(element, into: &state) }
            } catch {
                let failure = error as? StreamElementTooLarge ?? StreamElementTooLarge(limit: maximumElementSize)
                state.failure = failure
                state.closed = true
                return .failure(failure)
            }
            return .success(state.waiting.count > before ? state.onArrival : nil)
        }
        try outcome.get()?()
    }

    /// Queues `element` for the reader; the server's reconnection delay is kept here instead,
    /// known as soon as it arrives (a stream may drop before the reader has caught up).
    private static func enqueue(_ element: StreamedElement, into state: inout State) {
        if case .retry(let milliseconds) = element {
            state.retry = milliseconds
            return
        }
        state.waiting.append(element)
        state.waitingBytes += element.size
        state.received += 1
    }

    // MARK: The reader's side

    /// Every element waiting, taken off the line at once (one lock for many elements); a
    /// transport waiting for the reader goes on.
    func takeAll() -> [StreamedElement] {
        let (taken, producer) = state.withLock(annotating: self) { state -> ([StreamedElement], DispatchSemaphore?) in
            var taken: [StreamedElement] = []
            swap(&taken, &state.waiting)
            state.waitingBytes = 0
            defer { state.producer = nil }
            return (taken, state.producer)
        }
        producer?.signal()
        return taken
    }

    /// Sets who is told when elements arrive (from the transport's thread).
    func whenElementsArrive(_ arrival: @escaping @Sendable () -> Void) {
        state.withLock(annotating: self) { $0.onArrival = arrival }
    }

    /// The reader is gone: pieces are refused from now on, and a transport waiting for the
    /// reader goes on (to find its pieces refused).
    func close() {
        let producer = state.withLock(annotating: self) { state in
            state.closed = true
            state.onArrival = nil
            defer { state.producer = nil }
            return state.producer
        }
        producer?.signal()
    }

    var isClosed: Bool { state.withLock(annotating: self) { $0.closed } }

    /// Whether an element waits to be taken.
    var hasWaiting: Bool { state.withLock(annotating: self) { !$0.waiting.isEmpty } }

    /// An element that grew past the limit, if one did.
    var failure: StreamElementTooLarge? { state.withLock(annotating: self) { $0.failure } }

    /// Whether the last body was cut inside an element (see ``endOfBody(endsAtClose:)``); asking
    /// forgets it, as a reconnection's body starts anew.
    func takeCut() -> Bool {
        state.withLock(annotating: self) { state in
            defer { state.wasCut = false }
            return state.wasCut
        }
    }

    /// The server's reconnection delay, once it has sent one.
    var retryDelay: Duration? { state.withLock(annotating: self) { $0.retry.map { .milliseconds($0) } } }

    /// The last event ID received, for `Last-Event-ID` on reconnecting.
    var lastEventID: String { state.withLock(annotating: self) { $0.lastEventID } }

    /// Elements received so far, over every connection.
    var elementsReceived: Int { state.withLock(annotating: self) { $0.received } }

    /// Responses accepted for streaming so far: one per connection that got under way.
    var acceptedResponses: Int { state.withLock(annotating: self) { $0.accepted } }
}

extension StreamedElement {
    /// Bytes it holds, for the bound on what waits: its text, and what an element costs in
    /// memory however small (its storage in the line, its strings' headers).
    var size: Int {
        let overhead = 64
        switch self {
        case .event(let event): return overhead + event.data.utf8.count + event.type.utf8.count + event.id.utf8.count
        case .retry: return overhead
        case .line(let data, _): return overhead + data.count
        }
    }
}
