/// Sends the body of one ``StreamedResponse`` over a connection and says how it ended.
///
/// Elements are framed as chunks (or sent bare, for HTTP/1.0) and gathered into writes of up to
/// ``batchBytes``: a write goes out when the batch is full, before every wait and at the end, so
/// that a fast stream costs few system calls and a dripping one sends each element as it is made.
/// Every wait between elements is a `poll` woken by the server's stop pipe and by the client: its
/// hang-up (an end of stream, a reset, a TLS `close_notify`) ends the stream at once, and what it
/// sends meanwhile (a pipelined request) is kept for the connection's parser. A write to a client
/// that stops reading ends after the idle timeout, as every write of the connection does; a stream
/// that never waits looks at the stop pipe before each write, so `stop()` never waits for it.
struct StreamSender {
    /// How a stream ended, as its log line says it.
    enum Ending: Equatable, CustomStringConvertible {
        case finished
        case clientClosed
        /// The client took no byte for a whole idle timeout.
        case clientStoppedReading(Duration)
        case serverStopped
        /// The connection was closed after the elements an interruption allowed.
        case dropped
        /// Nothing more was sent after the elements an interruption allowed, until the stall ended.
        case stalled(until: StallEnd)

        enum StallEnd: Equatable {
            case clientClosed, serverStopped
            case held(Duration)
        }

        var description: String {
            switch self {
            case .finished: "finished"
            case .clientClosed: "the client closed the connection"
            case .clientStoppedReading(let timeout): "the client read nothing for \(timeout)"
            case .serverStopped: "the server stopped"
            case .dropped: "dropped (X-Demo-Fault)"
            case .stalled(.clientClosed): "stalled until the client closed the connection (X-Demo-Fault)"
            case .stalled(.serverStopped): "stalled until the server stopped (X-Demo-Fault)"
            case .stalled(.held(let hold)): "stalled for \(hold) (X-Demo-Fault)"
            }
        }
    }

    /// The most bytes one write carries, unless one element is larger.
    static let batchBytes = 64 << 10
    /// The chunk that ends a chunked body, with no trailer fields.
    static let lastChunk = Array("0\r\n\r\n".utf8)
    /// The most a client may send while a stream runs before the stream stops reading it (a
    /// pipelined request is far smaller); past it, a hang-up is noticed only when a write fails.
    static let maxIncomingBytes = 64 << 10
    private static let crlf = Array("\r\n".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    private let stream: ConnectionStream
    private let wake: Int32
    private let idleTimeout: Duration
    private let chunked: Bool
    private let handler: any HTTPHandler
    /// Framed bytes not yet written, and the elements and body bytes they complete.
    private var batch: [UInt8] = []
    private var batchElements = 0
    private var batchBodyBytes = 0
    /// Elements written, and the body bytes written (the prologue's too, chunk framing left out).
    private(set) var elementsSent = 0
    private(set) var bytesSent = 0
    /// What the client sent while the stream ran, to be handed to the connection's parser.
    private(set) var incoming: [UInt8] = []

    init(stream: ConnectionStream, wake: Int32, idleTimeout: Duration, chunked: Bool, handler: any HTTPHandler) {
        self.stream = stream
        self.wake = wake
        self.idleTimeout = idleTimeout
        self.chunked = chunked
        self.handler = handler
    }

    /// Sends `head`, then the response's prologue and elements as its drip and interruption say.
    ///
    /// It stops short of the end of the body: after `.finished`, the caller logs the stream, then
    /// sends ``lastChunk`` (or closes the connection), so that a client that has read the whole body
    /// finds the stream's log line.
    mutating func run(_ response: StreamedResponse, head: [UInt8]) -> Ending {
        batch = head
        if !response.prologue.isEmpty, let ending = frame(response.prologue, isElement: false) { return ending }
        var framed = 0
        while true {
            if let interruption = response.interruption, framed == interruption.afterElements {
                if let ending = flush() { return ending }
                guard let hold = interruption.hold else { return .dropped }
                switch pause(hold) {
                case nil: return .stalled(until: .held(hold))
                case .serverStopped: return .stalled(until: .serverStopped)
                default: return .stalled(until: .clientClosed)
                }
            }
            guard let element = response.next() else { return flush() ?? .finished }
            if framed > 0, let drip = response.drip {
                if let ending = flush() { return ending }
                if let ending = pause(drip) { return ending }
            }
            if let ending = frame(element, isElement: true) { return ending }
            framed += 1
        }
    }

    /// Adds `bytes` to the batch as one chunk, writing when the batch is full.
    private mutating func frame(_ bytes: [UInt8], isElement: Bool) -> Ending? {
        if chunked { appendChunkSize(bytes.count) }
        if bytes.count >= Self.batchBytes {
            // Written as it is: copying a large element into the batch would double its memory.
            if let ending = flush() { return ending }
            if let ending = write(bytes[...]) { return ending }
            record(elements: isElement ? 1 : 0, bytes: bytes.count)
        } else {
            batch += bytes
            batchElements += isElement ? 1 : 0
            batchBodyBytes += bytes.count
        }
        if chunked { batch += Self.crlf }
        return batch.count >= Self.batchBytes ? flush() : nil
    }

    /// `<size in hex>\r\n`, written digit by digit: a stream of millions of small elements spends
    /// much of its time here.
    private mutating func appendChunkSize(_ size: Int) {
        var shift = max(0, (Int.bitWidth - size.leadingZeroBitCount + 3) / 4 - 1) * 4
        while shift >= 0 {
            batch.append(Self.hexDigits[(size >> shift) & 0xf])
            shift -= 4
        }
        batch += Self.crlf
    }

    /// Writes the batch, if any.
    private mutating func flush() -> Ending? {
        guard !batch.isEmpty else { return nil }
        if let ending = write(batch[...]) { return ending }
        batch.removeAll(keepingCapacity: true)
        record(elements: batchElements, bytes: batchBodyBytes)
        batchElements = 0
        batchBodyBytes = 0
        return nil
    }

    private mutating func record(elements: Int, bytes: Int) {
        elementsSent += elements
        bytesSent += bytes
        if elements > 0 { handler.recordStreamElementsSent(elements) }
    }

    private func write(_ bytes: ArraySlice<UInt8>) -> Ending? {
        if Posix.hasFired(wake) { return .serverStopped }
        return switch stream.write(bytes) {
        case nil: nil
        case .peerGone: .clientClosed
        case .timedOut: .clientStoppedReading(idleTimeout)
        case .stopping: .serverStopped
        }
    }

    /// Waits for `duration`, keeping what the client sends meanwhile: nil when it has passed,
    /// otherwise the ending that cut it short (the client hung up, the server is stopping).
    private mutating func pause(_ duration: Duration) -> Ending? {
        let deadline = ContinuousClock.now + duration
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let watching = incoming.count < Self.maxIncomingBytes
            // Bytes TLS has already taken off the socket are read without waiting for more.
            let ready = watching && stream.hasBufferedInput
                ? .ready : Posix.wait(for: watching ? stream.fd : nil, wake: wake, until: deadline)
            switch ready {
            case .timedOut:
                return nil
            case .stopping:
                return .serverStopped
            case .ready:
                let count = buffer.withUnsafeMutableBytes { stream.receive(into: $0) }
                guard let count else { continue }  // part of a TLS record: wait for the rest
                guard count > 0 else { return .clientClosed }
                incoming += buffer[0..<count]
            }
        }
    }
}
