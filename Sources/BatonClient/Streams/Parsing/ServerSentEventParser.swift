/// Reads a `text/event-stream` body as the HTML standard's "event stream interpretation" does,
/// from byte chunks of any size as they arrive, in memory bounded by `maximumEventSize`.
///
/// Guarantees:
/// - **Any split, same outputs.** Feeding a stream whole, a byte at a time or in any other
///   pieces gives the same outputs in the same order: a CR at the end of one chunk and an LF at
///   the start of the next are one line end, and a byte order mark or a UTF-8 sequence may be
///   split anywhere.
/// - **The standard's rules.** Lines end with CRLF, LF or CR. A blank line dispatches the event;
///   a line starting with `:` is a comment; otherwise the text before the first `:` is the field
///   name and the text after it, less one leading space, its value (a line without `:` is a name
///   with an empty value). `data` appends its value and an LF to the data buffer; `event` sets
///   the type; `id` sets the last event ID buffer unless its value holds U+0000; `retry` with
///   only ASCII digits gives `.retry(milliseconds:)` at once; any other field is ignored.
///   Dispatch sets `lastEventID` from the ID buffer, then emits an event unless the data buffer
///   is empty. Lines are decoded as UTF-8 once complete, invalid sequences becoming U+FFFD; one
///   byte order mark at the very start of the stream is skipped, any later one is text.
/// - **End of stream.** `finish()` discards what was not dispatched, as the standard says: an
///   event without its blank line, and a last line without its line end, are never seen.
/// - **Bounded memory.** The bytes held for the event being built (the data buffer, the type,
///   the ID buffer and the line not yet ended) never exceed `maximumEventSize`: the byte that
///   would pass it makes `feed` throw `StreamElementTooLarge` instead of being kept. Dispatch
///   empties the buffers, so a stream of any length through one parser holds no more than that.
/// - **Fails once, for good.** After throwing `StreamElementTooLarge`, `feed` and `finish` throw
///   it again. An error thrown by `emit` is passed on, and the rest of that chunk is not read.
struct ServerSentEventParser {
    /// What the stream tells its reader, in the order the server sent it.
    enum Output: Sendable, Hashable {
        /// A dispatched event: a blank line ended a block with at least one `data` line.
        case event(ServerSentEvent)
        /// A `retry` line: the server asks to wait this long before reconnecting.
        case retry(milliseconds: Int)
    }

    /// The most bytes the event being built may hold (see the type's guarantees).
    let maximumEventSize: Int

    /// The last event ID as of the latest dispatch, `""` until a dispatched block (or one before
    /// it) had an `id` line; what a reconnecting client sends as `Last-Event-ID`. An `id` line is
    /// taken into it only when its block is dispatched, even one without data, never when the
    /// stream ends before the block's blank line. Set it to carry the ID over to a new
    /// connection's body (a reconnection resumes after it).
    var lastEventID = ""

    /// The line not yet ended, while it spans chunks (complete lines within a chunk are read
    /// where they lie).
    private var line: [UInt8] = []
    /// The data buffer: each `data` value followed by an LF, kept as bytes until dispatch.
    private var data: [UInt8] = []
    /// The event type buffer, as bytes.
    private var eventType: [UInt8] = []
    /// The last event ID buffer, as bytes; it outlives dispatches, as the standard's does.
    private var eventID: [UInt8] = []
    /// Whether `eventID` changed since `lastEventID` was last decoded from it.
    private var eventIDChanged = false
    /// Whether the previous byte was a CR, so that an LF right after it ends no second line.
    private var afterCarriageReturn = false
    /// How many bytes of a byte order mark the stream has started with, while that can still
    /// grow into the whole mark; `nil` once the start of the stream is past.
    private var byteOrderMarkMatched: Int? = 0
    /// The error thrown, thrown again by every later call.
    private var failure: StreamElementTooLarge?
    /// Whether `finish` was called.
    private var isFinished = false

    /// A parser for one stream, holding at most `maximumEventSize` bytes for the event being
    /// built.
    init(maximumEventSize: Int) {
        precondition(maximumEventSize >= 0, "a negative maximum event size")
        self.maximumEventSize = maximumEventSize
    }

    /// Whether the stream is in the middle of an event: a line not yet ended, or fields read
    /// that no blank line has dispatched. A stream whose end nothing vouches for (a connection
    /// closed with no length or chunking) and that ends here was cut, not ended.
    var isInsideEvent: Bool {
        !line.isEmpty || !data.isEmpty || !eventType.isEmpty || eventIDChanged
    }

    /// The bytes held for the event being built, never more than `maximumEventSize`.
    var heldBytes: Int {
        line.count + data.count + eventType.count + eventID.count
    }

    /// Reads the next bytes of the stream, calling `emit` for each output they complete.
    ///
    /// - Throws: `StreamElementTooLarge` when the event being built would pass the limit, and
    ///   whatever `emit` throws.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (Output) throws -> Void) throws {
        if let failure { throw failure }
        precondition(!isFinished, "bytes fed to a finished event stream parser")
        var index = try skipByteOrderMark(bytes)
        while index < bytes.count {
            if afterCarriageReturn {
                afterCarriageReturn = false
                if bytes[index] == EventStreamByte.lineFeed {
                    index += 1
                    continue
                }
            }
            var end = index
            while end < bytes.count, bytes[end] != EventStreamByte.lineFeed,
                  bytes[end] != EventStreamByte.carriageReturn {
                end += 1
            }
            let piece = UnsafeRawBufferPointer(rebasing: bytes[index..<end])
            try hold(piece.count)
            guard end < bytes.count else {
                line.append(contentsOf: piece)
                return
            }
            // A CR ends the line at once (a blank line dispatches without waiting for the next
            // chunk); an LF that follows it is skipped when it comes.
            afterCarriageReturn = bytes[end] == EventStreamByte.carriageReturn
            if line.isEmpty {
                try process(piece, emit)
            } else {
                line.append(contentsOf: piece)
                try processHeldLine(emit)
            }
            index = end + 1
        }
    }

    /// Ends the stream: what was not dispatched is discarded, as the standard says, so this
    /// emits nothing; `lastEventID` stays. The parser reads nothing more.
    ///
    /// - Throws: the `StreamElementTooLarge` a `feed` threw before, if one did.
    mutating func finish(_ emit: (Output) throws -> Void) throws {
        if let failure { throw failure }
        isFinished = true
        line = []
        data = []
        eventType = []
        eventID = []
    }

    // MARK: - Reading

    /// Skips a byte order mark at the very start of the stream, even split across chunks, and
    /// returns where the rest of `bytes` starts. Bytes that began like the mark but were not
    /// one are text, and go to the line.
    private mutating func skipByteOrderMark(_ bytes: UnsafeRawBufferPointer) throws -> Int {
        guard var matched = byteOrderMarkMatched else { return 0 }
        var index = 0
        while index < bytes.count {
            guard bytes[index] == EventStreamByte.byteOrderMark[matched] else {
                byteOrderMarkMatched = nil
                try hold(matched)
                line.append(contentsOf: EventStreamByte.byteOrderMark[..<matched])
                return index
            }
            matched += 1
            index += 1
            if matched == EventStreamByte.byteOrderMark.count {
                byteOrderMarkMatched = nil
                return index
            }
        }
        byteOrderMarkMatched = matched
        return index
    }

    /// Makes sure `count` more bytes of the line fit in the limit, or fails for good.
    private mutating func hold(_ count: Int) throws {
        guard heldBytes + count <= maximumEventSize else {
            let error = StreamElementTooLarge(limit: maximumEventSize)
            failure = error
            throw error
        }
    }

    /// Processes the line gathered in `line` across chunks, keeping its storage for the next.
    private mutating func processHeldLine(_ emit: (Output) throws -> Void) throws {
        var complete: [UInt8] = []
        swap(&complete, &line)
        defer {
            complete.removeAll(keepingCapacity: true)
            swap(&complete, &line)
        }
        try complete.withUnsafeBytes { try process($0, emit) }
    }

    /// Processes one complete line, without its line end.
    ///
    /// Working on bytes is the same as decoding first: the colon, the space, LF, U+0000 and the
    /// digits are ASCII, which UTF-8 never uses inside a multi-byte sequence and which end any
    /// invalid one, so they are found at the same places; names and values are decoded when
    /// dispatched.
    private mutating func process(_ line: UnsafeRawBufferPointer, _ emit: (Output) throws -> Void) throws {
        guard let first = line.first else { return try dispatch(emit) }
        if first == EventStreamByte.colon { return }
        let colon = line.firstIndex(of: EventStreamByte.colon) ?? line.count
        let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
        var valueStart = min(colon + 1, line.count)
        if valueStart < line.count, line[valueStart] == EventStreamByte.space { valueStart += 1 }
        let value = UnsafeRawBufferPointer(rebasing: line[valueStart...])
        if Self.is(name, "data") {
            data.append(contentsOf: value)
            data.append(EventStreamByte.lineFeed)
        } else if Self.is(name, "event") {
            eventType.removeAll(keepingCapacity: true)
            eventType.append(contentsOf: value)
        } else if Self.is(name, "id") {
            guard !value.contains(0) else { return }
            eventID.removeAll(keepingCapacity: true)
            eventID.append(contentsOf: value)
            eventIDChanged = true
        } else if Self.is(name, "retry") {
            if let milliseconds = Self.milliseconds(value) { try emit(.retry(milliseconds: milliseconds)) }
        }
    }

    /// The standard's dispatch: the last event ID is set whatever the block held; an event goes
    /// out only when the data buffer is not empty; the data and type buffers are emptied.
    private mutating func dispatch(_ emit: (Output) throws -> Void) throws {
        if eventIDChanged {
            lastEventID = String(decoding: eventID, as: UTF8.self)
            eventIDChanged = false
        }
        guard !data.isEmpty else {
            eventType.removeAll(keepingCapacity: true)
            return
        }
        // The data buffer always ends with the LF its last `data` line added: the one removed.
        let event = ServerSentEvent(
            type: eventType.isEmpty ? "message" : String(decoding: eventType, as: UTF8.self),
            data: data.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0.dropLast()), as: UTF8.self) },
            id: lastEventID)
        data.removeAll(keepingCapacity: true)
        eventType.removeAll(keepingCapacity: true)
        try emit(.event(event))
    }

    /// Whether the field name `name` is `field`: compared byte by byte, once per line, so kept
    /// to the cheapest comparison there is.
    private static func `is`(_ name: UnsafeRawBufferPointer, _ field: StaticString) -> Bool {
        guard name.count == field.utf8CodeUnitCount else { return false }
        let expected = field.utf8Start
        for index in 0..<name.count where name[index] != expected[index] { return false }
        return true
    }

    /// A `retry` value read as base-ten milliseconds, or `nil` when it is empty or holds
    /// anything but ASCII digits. A value too large for `Int` is `Int.max`: the server asked
    /// for the longest wait there is.
    private static func milliseconds(_ value: UnsafeRawBufferPointer) -> Int? {
        guard !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        var milliseconds = 0
        for digit in value {
            let (tens, overflowed) = milliseconds.multipliedReportingOverflow(by: 10)
            let (sum, overflowedAgain) = tens.addingReportingOverflow(Int(digit - 0x30))
            if overflowed || overflowedAgain { return .max }
            milliseconds = sum
        }
        return milliseconds
    }
}

/// The bytes the event stream's syntax is made of.
private enum EventStreamByte {
    /// LF, which ends a line, alone or after a CR.
    static let lineFeed: UInt8 = 0x0A
    /// CR, which ends a line, alone or before an LF.
    static let carriageReturn: UInt8 = 0x0D
    /// `:`, which starts a comment or ends a field's name.
    static let colon: UInt8 = 0x3A
    /// The space that may follow a field's colon, not part of its value.
    static let space: UInt8 = 0x20
    /// U+FEFF in UTF-8, which the UTF-8 decode algorithm drops once, at the start of a stream.
    static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
}
