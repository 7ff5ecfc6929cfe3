/// A strict, incremental parser of one HTTP/1.x response on the client's side (RFC 9112): fed the
/// bytes as they arrive, split anywhere, it hands on the final response's head, its body where it
/// lies in the bytes given (no copy), and its end.
///
/// Interim 1xx responses are read and skipped; `101 Switching Protocols` is refused. The body is
/// delimited as RFC 9112 §6.3 says: none for HEAD, 204 and 304; the chunked coding; a
/// Content-Length; else the connection's close, reported through `parseEnd`. Anything that
/// breaks the grammar, a limit or the framing rules throws a ``WireError``, never a trap; once
/// one is thrown, every later call throws it again.
///
/// ```
/// var parser = ResponseParser(requestMethod: "GET")
/// let used = try bytes.withUnsafeBytes { try parser.parse($0) { event in ... } }
/// ```
package struct ResponseParser: Sendable {
    private enum Phase: Sendable {
        case statusLine
        case fields(StatusLine)
        case fixedBody(remaining: Int64)
        case untilClose
        case chunked
        case complete
        case failed(WireError)
    }

    private var phase = Phase.statusLine
    private let requestMethod: String
    private let limits: ResponseLimits
    // The parts each phase works with, kept outside `phase` so that they change in place.
    private var statusReader: LineReader
    private var section: FieldSection
    private var decoder: ChunkedDecoder
    /// The head's bytes read, those of interim responses before it included.
    private var headBytes = 0
    private var keepsConnectionAfterBody = false

    /// The body's declared length when Content-Length framed (for progress totals), else `nil`.
    package private(set) var declaredLength: Int64?

    /// A parser of the response to a request with the method `requestMethod`: a response to
    /// `"HEAD"` has no body, whatever it declares.
    package init(requestMethod: String, limits: ResponseLimits = ResponseLimits()) {
        self.requestMethod = requestMethod
        self.limits = limits
        statusReader = LineReader(maximumLength: limits.maximumLineBytes, section: .head)
        section = FieldSection(.head, limits: limits)
        decoder = ChunkedDecoder(limits: limits)
    }

    /// Whether the response's end has been handed on.
    package var isComplete: Bool {
        if case .complete = phase { return true }
        return false
    }

    /// Whether the body is being read until the connection closes (no length, not chunked): its
    /// end is the close, so only a close the connection vouches for makes it whole.
    package var isReadingUntilClose: Bool {
        if case .untilClose = phase { return true }
        return false
    }

    /// After completion, whether the connection can carry another request: HTTP/1.1 without
    /// `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`, never after a body that
    /// ended with the connection. `false` before completion.
    package var keepsConnection: Bool { isComplete && keepsConnectionAfterBody }

    /// Parses `bytes`, calling `handle` for each event in order. Body events point into `bytes`
    /// and are valid only during the call. Returns how many bytes were used: all of them, or
    /// fewer when the response ended before them (the rest is not this response's), or 0 once
    /// complete. When `handle` throws, its error is thrown on, the event counting as delivered.
    package mutating func parse(_ bytes: UnsafeRawBufferPointer, _ handle: (ResponseEvent) throws -> Void) throws -> Int {
        if case .failed(let error) = phase { throw error }
        var index = 0
        do {
            while index < bytes.count {
                switch phase {
                case .statusLine:
                    try readStatusLine(bytes, at: &index)
                case .fields(let statusLine):
                    let complete = try section.read(bytes, at: &index)
                    headBytes = section.byteCount
                    if complete { try finishHead(statusLine, handle) }
                case .fixedBody(let remaining):
                    let count = Int(min(remaining, Int64(bytes.count - index)))
                    let piece = UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)])
                    index += count
                    phase = remaining == Int64(count) ? .complete : .fixedBody(remaining: remaining - Int64(count))
                    try handle(.body(piece))
                    if remaining == Int64(count) { try handle(.end(trailers: [])) }
                case .untilClose:
                    let piece = UnsafeRawBufferPointer(rebasing: bytes[index...])
                    index = bytes.count
                    try handle(.body(piece))
                case .chunked:
                    try decoder.decode(bytes, at: &index, handle)
                    if decoder.isDone { phase = .complete }
                case .complete, .failed:
                    return index
                }
            }
        } catch let error as WireError {
            phase = .failed(error)
            throw error
        }
        return index
    }

    /// The server closed the connection: ends a body delimited by the close, with `.end`;
    /// otherwise throws why the response is incomplete. Does nothing once complete.
    package mutating func parseEnd(_ handle: (ResponseEvent) throws -> Void) throws {
        let error: WireError
        switch phase {
        case .complete:
            return
        case .untilClose:
            phase = .complete
            try handle(.end(trailers: []))
            return
        case .failed(let failure):
            throw failure
        case .statusLine:
            error = headBytes == 0 ? .closedBeforeResponse : .closedInHead(after: headBytes)
        case .fields:
            error = .closedInHead(after: headBytes)
        case .fixedBody(let remaining):
            let declared = declaredLength ?? remaining
            error = .closedInBody(received: declared - remaining, declared: declared)
        case .chunked:
            error = decoder.closedError
        }
        phase = .failed(error)
        throw error
    }

    // MARK: The head

    private mutating func readStatusLine(_ bytes: UnsafeRawBufferPointer, at index: inout Int) throws(WireError) {
        let budget = limits.maximumHeadBytes - headBytes
        guard budget > 0 else { throw .headTooLarge(.head, limit: limits.maximumHeadBytes) }
        let start = index
        let complete = try statusReader.read(bytes, at: &index, budget: budget)
        headBytes += index - start
        guard complete else { return }
        let statusLine = try StatusLine.parse(statusReader.line[...])
        statusReader.clear()
        if statusLine.status == 101 { throw .switchingProtocols }
        section = FieldSection(.head, limits: limits, byteCount: headBytes)
        phase = .fields(statusLine)
    }

    /// The head is complete: skips an interim response, else hands on the head, and the end at
    /// once when there is no body.
    private mutating func finishHead(_ statusLine: StatusLine, _ handle: (ResponseEvent) throws -> Void) throws {
        let head = ResponseHead(version: statusLine.version, status: statusLine.status,
                                reason: statusLine.reason, fields: section.fields)
        section = FieldSection(.head, limits: limits)
        if head.status < 200 {
            phase = .statusLine
            return
        }
        let framing = try BodyFraming.of(head, requestMethod: requestMethod)
        keepsConnectionAfterBody = BodyFraming.keepsConnection(head, framing: framing)
        switch framing {
        case .none, .length(0):
            if case .length = framing { declaredLength = 0 }
            phase = .complete
            try handle(.head(head))
            try handle(.end(trailers: []))
        case .length(let length):
            declaredLength = length
            phase = .fixedBody(remaining: length)
            try handle(.head(head))
        case .chunked:
            phase = .chunked
            try handle(.head(head))
        case .untilClose:
            phase = .untilClose
            try handle(.head(head))
        }
    }
}
