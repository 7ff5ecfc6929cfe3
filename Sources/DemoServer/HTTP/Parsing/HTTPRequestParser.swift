/// An incremental HTTP/1.1 request parser (RFC 9112): bytes in, request events out.
///
/// Feed whatever arrived with `append`, then call `next` until it returns nil (more bytes needed).
/// Each request yields `.head`, zero or more `.body` pieces and `.end`, in order, so pipelined
/// requests come out one after the other. Any error is final for the connection: the parser cannot
/// know where the next request would start. Nothing a client sends can make it trap: lengths are
/// parsed with overflow checks, and the head and chunk lines are bounded.
struct HTTPRequestParser {
    enum Event {
        case head(HTTPRequestHead)
        case body(ArraySlice<UInt8>)
        case end
    }

    /// Request line plus header fields, and separately the trailer section of a chunked body.
    static let maxHeadBytes = 64 * 1024
    /// A chunk-size line longer than this is not a real client's.
    static let maxChunkLineBytes = 4 * 1024

    private enum State {
        /// Offsets are relative to `start`: the current line's first byte and how far was scanned.
        case head(lineStart: Int, scanned: Int)
        case fixedBody(remaining: Int)
        case chunkLine
        case chunkData(remaining: Int)
        case chunkDataEnd
        case trailers(lineStart: Int, scanned: Int)
        case endPending
    }

    let maxBodyBytes: Int
    private var buffer: [UInt8] = []
    private var start = 0
    private var state = State.head(lineStart: 0, scanned: 0)
    private var chunkedBodyBytes = 0

    init(maxBodyBytes: Int) {
        self.maxBodyBytes = maxBodyBytes
    }

    /// True when no byte of a next request has arrived: an idle keep-alive connection.
    var isBetweenRequests: Bool {
        if case .head(_, let scanned) = state { return scanned == 0 && start == buffer.count }
        return false
    }

    /// True while the request line and header fields are still arriving.
    var isReadingHead: Bool {
        if case .head = state { return true }
        return false
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start >= 64 * 1024 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// The next event, or nil when the buffered bytes do not complete one.
    /// Takes up to `remaining` body bytes from the buffer: the bytes and how many are still to
    /// come, or `nil` when none have arrived yet.
    private mutating func takeBody(upTo remaining: Int) -> (ArraySlice<UInt8>, Int)? {
        let available = buffer.count - start
        guard available > 0 else { return nil }
        let count = min(available, remaining)
        let piece = buffer[start..<start + count]
        start += count
        return (piece, remaining - count)
    }

    mutating func next() throws(HTTPParseError) -> Event? {
        while true {
            switch state {
            case .head(let lineStart, let scanned):
                return try nextHead(lineStart: lineStart, scanned: scanned)
            case .fixedBody(let remaining):
                guard let (piece, left) = takeBody(upTo: remaining) else { return nil }
                state = left == 0 ? .endPending : .fixedBody(remaining: left)
                return .body(piece)
            case .chunkLine:
                guard try readChunkLine() else { return nil }
            case .chunkData(let remaining):
                guard let (piece, left) = takeBody(upTo: remaining) else { return nil }
                state = left == 0 ? .chunkDataEnd : .chunkData(remaining: left)
                return .body(piece)
            case .chunkDataEnd:
                guard buffer.count - start >= 1 else { return nil }
                if buffer[start] == .lf {
                    start += 1
                } else if buffer[start] == .cr {
                    guard buffer.count - start >= 2 else { return nil }
                    guard buffer[start + 1] == .lf else { throw .badRequest("chunk data not followed by CRLF") }
                    start += 2
                } else {
                    throw .badRequest("chunk data longer than its declared size")
                }
                state = .chunkLine
            case .trailers(let lineStart, let scanned):
                guard try skipTrailers(lineStart: lineStart, scanned: scanned) else { return nil }
            case .endPending:
                state = .head(lineStart: 0, scanned: 0)
                chunkedBodyBytes = 0
                return .end
            }
        }
    }

    // MARK: - Head

    private mutating func nextHead(lineStart: Int, scanned: Int) throws(HTTPParseError) -> Event? {
        if scanned == 0 {
            // RFC 9112 §2.2: empty lines before a request line are ignored (some clients send a CRLF
            // after a body).
            while start < buffer.count, buffer[start] == .cr || buffer[start] == .lf { start += 1 }
        }
        var lineStart = lineStart
        var index = start + scanned
        while index < buffer.count {
            let byte = buffer[index]
            if byte == .lf {
                let lineLength = index - (start + lineStart)
                let isEmpty = lineLength == 0 || (lineLength == 1 && buffer[index - 1] == .cr)
                if isEmpty && lineStart > 0 {
                    let head = try parseHead(buffer[start..<start + lineStart])
                    start = index + 1
                    return .head(head)
                }
                lineStart = index + 1 - start
            } else if !Self.isAllowedInHead(byte, inRequestLine: lineStart == 0) {
                throw lineStart == 0 ? .badRequest("invalid byte in request line") : .badRequest("invalid byte in header field")
            }
            index += 1
            if index - start > Self.maxHeadBytes { throw .headersTooLarge }
        }
        state = .head(lineStart: lineStart, scanned: index - start)
        return nil
    }

    private static func isAllowedInHead(_ byte: UInt8, inRequestLine: Bool) -> Bool {
        switch byte {
        case 0x21...0x7e, .space, .cr: true
        case .tab, 0x80...0xff: !inRequestLine
        default: false
        }
    }

    private mutating func parseHead(_ bytes: ArraySlice<UInt8>) throws(HTTPParseError) -> HTTPRequestHead {
        var lines = bytes.split(separator: .lf, omittingEmptySubsequences: false).map { line in
            line.last == .cr ? line.dropLast() : line
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let requestLine = lines.first else { throw .badRequest("missing request line") }
        var head = try HTTPRequestLine.parse(requestLine)
        for line in lines.dropFirst() {
            if line.contains(.cr) { throw .badRequest("bare CR in header field") }
            guard let first = line.first, first != .space, first != .tab else {
                throw .badRequest("obsolete line folding in header field")
            }
            guard let colon = line.firstIndex(of: .colon) else { throw .badRequest("header field without a colon") }
            let name = line[line.startIndex..<colon]
            guard !name.isEmpty, name.allSatisfy(\.isTokenCharacter) else {
                throw .badRequest("invalid header field name")
            }
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingOWS()
            head.headers.append(name: String(decoding: name, as: UTF8.self), value: value)
        }
        try applyFraming(to: &head)
        return head
    }

    /// Decides how the body is delimited and checks the fields that the transport depends on.
    private mutating func applyFraming(to head: inout HTTPRequestHead) throws(HTTPParseError) {
        let headers = head.headers
        if head.version == .http1_1 {
            let hosts = headers.values("Host")
            guard hosts.count == 1 else {
                throw .badRequest(hosts.isEmpty ? "HTTP/1.1 request without Host" : "more than one Host")
            }
        }
        let lengths = headers.values("Content-Length")
        let codings = headers.tokens("Transfer-Encoding")
        if !headers.values("Transfer-Encoding").isEmpty {
            guard lengths.isEmpty else { throw .badRequest("both Content-Length and Transfer-Encoding") }
            guard head.version == .http1_1 else { throw .badRequest("Transfer-Encoding in an HTTP/1.0 request") }
            guard codings == ["chunked"] else { throw .badRequest("unsupported Transfer-Encoding") }
            head.framing = .chunked
        } else if !lengths.isEmpty {
            let length = try Self.parseContentLength(lengths)
            guard length <= maxBodyBytes else { throw .payloadTooLarge }
            head.framing = length == 0 ? .none : .contentLength(length)
        }
        let expectations = headers.tokens("Expect")
        if head.version == .http1_1, !expectations.isEmpty {
            guard expectations == ["100-continue"] else { throw .expectationFailed }
            head.expectsContinue = true
        }
        switch head.framing {
        case .none: state = .endPending
        case .contentLength(let length): state = .fixedBody(remaining: length)
        case .chunked: state = .chunkLine
        }
    }

    /// One length from possibly repeated or comma-listed values, which must all agree (RFC 9110 §8.6).
    static func parseContentLength(_ values: [String]) throws(HTTPParseError) -> Int {
        var result: Int?
        for item in values.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let digits = item.trimmingOWS()
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0.decimalDigitValue != nil }) else {
                throw .badRequest("invalid Content-Length")
            }
            // All digits but too large for Int: a length no server would accept.
            guard let value = Int(digits) else { throw .payloadTooLarge }
            if let result, result != value { throw .badRequest("conflicting Content-Length values") }
            result = value
        }
        guard let result else { throw .badRequest("invalid Content-Length") }
        return result
    }

    // MARK: - Chunked body

    /// Consumes one `size[;extensions]` line; false when it has not fully arrived.
    private mutating func readChunkLine() throws(HTTPParseError) -> Bool {
        let searchEnd = min(buffer.count, start + Self.maxChunkLineBytes)
        guard let lf = buffer[start..<searchEnd].firstIndex(of: .lf) else {
            if buffer.count - start >= Self.maxChunkLineBytes { throw .badRequest("chunk size line too long") }
            return false
        }
        var line = buffer[start..<lf]
        if line.last == .cr { line = line.dropLast() }
        let sizeEnd = line.firstIndex(of: UInt8(ascii: ";")) ?? line.endIndex
        var digits = line[line.startIndex..<sizeEnd]
        while let last = digits.last, last == .space || last == .tab { digits = digits.dropLast() }
        guard !digits.isEmpty else { throw .badRequest("invalid chunk size") }
        var size = 0
        for digit in digits {
            guard let value = digit.hexDigitValue else { throw .badRequest("invalid chunk size") }
            let (shifted, overflow) = size.multipliedReportingOverflow(by: 16)
            let (sum, sumOverflow) = shifted.addingReportingOverflow(value)
            guard !overflow, !sumOverflow else { throw .payloadTooLarge }
            size = sum
        }
        guard size <= maxBodyBytes - chunkedBodyBytes else { throw .payloadTooLarge }
        chunkedBodyBytes += size
        start = lf + 1
        state = size == 0 ? .trailers(lineStart: 0, scanned: 0) : .chunkData(remaining: size)
        return true
    }

    /// Skips the trailer section up to its empty line; false when it has not fully arrived.
    private mutating func skipTrailers(lineStart: Int, scanned: Int) throws(HTTPParseError) -> Bool {
        var lineStart = lineStart
        var index = start + scanned
        while index < buffer.count {
            if buffer[index] == .lf {
                let lineLength = index - (start + lineStart)
                if lineLength == 0 || (lineLength == 1 && buffer[index - 1] == .cr) {
                    start = index + 1
                    state = .endPending
                    return true
                }
                lineStart = index + 1 - start
            }
            index += 1
            if index - start > Self.maxHeadBytes { throw .headersTooLarge }
        }
        state = .trailers(lineStart: lineStart, scanned: index - start)
        return false
    }
}
