/// The chunked transfer coding (RFC 9112 §7.1), decoded across any split of the bytes: chunk-size
/// lines (hexadecimal, with extensions checked and ignored), each chunk's data handed on where it
/// lies followed by exactly CRLF, the last chunk `0`, then the trailer section up to its empty
/// line.
package struct ChunkedDecoder: Sendable {
    private enum Phase: Sendable {
        case sizeLine
        case data(remaining: Int64)
        case dataEnd(sawCarriageReturn: Bool)
        case trailers(FieldSection)
        case done
    }

    /// The most hexadecimal digits of a chunk size: 16 hold any size up to `Int64.max`.
    package static let maximumSizeDigits = 16

    private var phase = Phase.sizeLine
    private var reader: LineReader
    private let limits: ResponseLimits
    /// The size of the chunk being read.
    private var chunkSize: Int64 = 0
    /// The body bytes decoded so far.
    package private(set) var bodyBytes: Int64 = 0

    package init(limits: ResponseLimits) {
        self.limits = limits
        reader = LineReader(maximumLength: limits.maximumLineBytes, section: .chunkLine)
    }

    /// Whether the trailer section's empty line has been read.
    package var isDone: Bool {
        if case .done = phase { return true }
        return false
    }

    /// Decodes from `bytes[index...]`, moving `index` past what it read, calling `handle` with
    /// each piece of data and, at the end, `.end` with the trailers. Stops at the end of the
    /// body, or when every byte was read.
    package mutating func decode(_ bytes: UnsafeRawBufferPointer, at index: inout Int,
                         _ handle: (ResponseEvent) throws -> Void) throws {
        while index < bytes.count {
            switch phase {
            case .sizeLine:
                guard try reader.read(bytes, at: &index, budget: Int.max) else { continue }
                chunkSize = try Self.parseSizeLine(reader.line[...])
                reader.clear()
                phase = chunkSize == 0 ? .trailers(FieldSection(.trailers, limits: limits)) : .data(remaining: chunkSize)
            case .data(let remaining):
                let count = Int(min(remaining, Int64(bytes.count - index)))
                let piece = UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)])
                index += count
                bodyBytes += Int64(count)
                phase = remaining == Int64(count) ? .dataEnd(sawCarriageReturn: false) : .data(remaining: remaining - Int64(count))
                try handle(.body(piece))
            case .dataEnd(let sawCarriageReturn):
                let byte = bytes[index]
                let expected = sawCarriageReturn ? WireText.lineFeed : WireText.carriageReturn
                guard byte == expected else { throw WireError.missingChunkTerminator(size: chunkSize, found: byte) }
                index += 1
                phase = sawCarriageReturn ? .sizeLine : .dataEnd(sawCarriageReturn: true)
            case .trailers(var section):
                phase = .done // While `section` is changed outside `phase`.
                let complete = try section.read(bytes, at: &index)
                guard complete else {
                    phase = .trailers(section)
                    continue
                }
                try handle(.end(trailers: section.fields))
                return
            case .done:
                return
            }
        }
    }

    /// Why the body is incomplete, when the server closed the connection now.
    package var closedError: WireError {
        switch phase {
        case .sizeLine:
            .closedInChunkedBody("\(bodyBytes) bytes received, no last chunk yet")
        case .data(let remaining):
            .closedInChunkedBody("\(chunkSize - remaining) of \(chunkSize) bytes of a chunk received")
        case .dataEnd:
            .closedInChunkedBody("no CRLF yet after a chunk of \(chunkSize) bytes")
        case .trailers, .done:
            .closedInChunkedBody("in its trailer section")
        }
    }

    /// A chunk-size line: `1*HEXDIG *( BWS ";" BWS name [ BWS "=" BWS value ] )`, the value a
    /// token or a quoted string. Returns the size.
    package static func parseSizeLine(_ line: ArraySlice<UInt8>) throws(WireError) -> Int64 {
        var index = line.startIndex
        var size: Int64 = 0
        while index < line.endIndex, let digit = WireText.hexValue(line[index]) {
            let (shifted, overflowed) = size.multipliedReportingOverflow(by: 16)
            guard index - line.startIndex < maximumSizeDigits, !overflowed else { throw .chunkSizeTooLarge(line) }
            size = shifted + Int64(digit)
            index += 1
        }
        guard index > line.startIndex else { throw .invalidChunkSize(line) }
        try checkExtensions(line, from: index)
        return size
    }

    /// Checks the chunk extensions of `line` from `start` on, which Baton ignores.
    private static func checkExtensions(_ line: ArraySlice<UInt8>, from start: Int) throws(WireError) {
        var index = start
        var sawExtension = false
        func skipWhitespace() { while index < line.endIndex, WireText.isWhitespace(line[index]) { index += 1 } }
        func skipToken() -> Bool {
            let first = index
            while index < line.endIndex, WireText.isTokenByte(line[index]) { index += 1 }
            return index > first
        }
        while index < line.endIndex {
            skipWhitespace()
            guard index < line.endIndex, line[index] == UInt8(ascii: ";") else {
                // Anything but an extension right after the digits is part of a bad size.
                throw sawExtension ? .invalidChunkExtension(line) : .invalidChunkSize(line)
            }
            index += 1
            sawExtension = true
            skipWhitespace()
            guard skipToken() else { throw .invalidChunkExtension(line) }
            let afterName = index
            skipWhitespace()
            guard index < line.endIndex, line[index] == UInt8(ascii: "=") else {
                index = afterName
                continue
            }
            index += 1
            skipWhitespace()
            if index < line.endIndex, line[index] == UInt8(ascii: "\"") {
                guard skipQuotedString(line, at: &index) else { throw .invalidChunkExtension(line) }
            } else if !skipToken() {
                throw .invalidChunkExtension(line)
            }
        }
    }

    /// Moves `index` past a quoted string (RFC 9110 §5.6.4) starting there; `false` when it is
    /// malformed or unterminated.
    private static func skipQuotedString(_ line: ArraySlice<UInt8>, at index: inout Int) -> Bool {
        index += 1
        while index < line.endIndex {
            let byte = line[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return true
            case UInt8(ascii: "\\"):
                guard index < line.endIndex, WireText.isTextByte(line[index]) else { return false }
                index += 1
            default:
                guard WireText.isTextByte(byte) else { return false }
            }
        }
        return false
    }
}
