import Foundation

/// Splits an `application/x-ndjson` (JSON lines) body into its lines, from byte chunks of any
/// size as they arrive, in memory bounded by `maximumLineSize`; decoding each line is left to
/// the caller.
///
/// Guarantees:
/// - **Any split, same lines.** Feeding a body whole, a byte at a time or in any other pieces
///   gives the same lines with the same numbers.
/// - **Lines.** A line ends with LF; a CR right before the LF is not part of it, even when the
///   LF comes in the next chunk. A last line without an LF is emitted by `finish`. A line that is
///   empty or holds only ASCII whitespace (space, tab, CR, form feed) is not emitted, but counted:
///   numbers are 1-based and count every line, so an error can name the line a person would see
///   in an editor.
/// - **Bounded memory.** A line is held only until it ends, and never past `maximumLineSize`
///   bytes (its CRLF or LF not counted): the byte that would pass the limit makes `feed` throw
///   `StreamElementTooLarge` at once, without waiting for the line's end.
/// - **Fails once, for good.** After throwing `StreamElementTooLarge`, `feed` and `finish` throw
///   it again. An error thrown by `emit` is passed on, and the rest of that chunk is not read.
struct JSONLinesParser {
    /// The most bytes a line may have, without its line end.
    let maximumLineSize: Int

    /// The line not yet ended, while it spans chunks, without a CR that may end it.
    private var line: [UInt8] = []
    /// Whether the last byte read was a CR, held back from `line` until the next byte says
    /// whether it ends the line (before an LF) or belongs to it.
    private var carriageReturnPending = false
    /// How many lines have ended so far, blank ones included.
    private(set) var lineCount = 0
    /// The error thrown, thrown again by every later call.
    private var failure: StreamElementTooLarge?
    /// Whether `finish` was called.
    private var isFinished = false

    /// A parser for one body, holding at most `maximumLineSize` bytes of a line.
    init(maximumLineSize: Int) {
        precondition(maximumLineSize >= 0, "a negative maximum line size")
        self.maximumLineSize = maximumLineSize
    }

    /// Whether the body is in the middle of a line that is not blank: one that `finish` would
    /// emit without its LF. A body whose end nothing vouches for (a connection closed with no
    /// length or chunking) and that ends here was cut, not ended.
    var isInsideLine: Bool { !line.isEmpty && !Self.isBlank(Data(line)) }

    /// The bytes held for the line not yet ended, never more than `maximumLineSize` (a CR held
    /// back is a flag, not a byte of the line, until the next byte says it is one).
    var heldBytes: Int { line.count }

    /// Reads the next bytes of the body, calling `emit` with each line they complete that is not
    /// blank, and its 1-based number.
    ///
    /// - Throws: `StreamElementTooLarge` when a line would pass the limit, and whatever `emit`
    ///   throws.
    mutating func feed(_ bytes: UnsafeRawBufferPointer, _ emit: (_ line: Data, _ number: Int) throws -> Void) throws {
        if let failure { throw failure }
        precondition(!isFinished, "bytes fed to a finished JSON lines parser")
        var index = 0
        while index < bytes.count {
            let end = bytes[index...].firstIndex(of: JSONLinesByte.lineFeed) ?? bytes.count
            var piece = UnsafeRawBufferPointer(rebasing: bytes[index..<end])
            if !piece.isEmpty, carriageReturnPending {
                // The CR held back was not before an LF: it is part of the line.
                try append(CollectionOfOne(JSONLinesByte.carriageReturn))
                carriageReturnPending = false
            }
            let endsWithCarriageReturn = piece.last == JSONLinesByte.carriageReturn
            if endsWithCarriageReturn { piece = UnsafeRawBufferPointer(rebasing: piece.dropLast()) }
            guard end < bytes.count else {
                try append(piece)
                // Not counted yet: a CR before an LF is not part of the line, so a line at the
                // limit whose CR and LF come in different chunks must pass as it does whole.
                carriageReturnPending = endsWithCarriageReturn
                return
            }
            carriageReturnPending = false
            lineCount += 1
            if line.isEmpty {
                guard piece.count <= maximumLineSize else { throw fail() }
                if !Self.isBlank(piece) { try emit(Data(piece), lineCount) }
            } else {
                try append(piece)
                let complete = Data(line)
                line.removeAll(keepingCapacity: true)
                if !Self.isBlank(complete) { try emit(complete, lineCount) }
            }
            index = end + 1
        }
    }

    /// Ends the body, emitting its last line if it had no LF and is not blank (a CR at its very
    /// end is then part of it).
    ///
    /// - Throws: the `StreamElementTooLarge` a `feed` threw before, if one did, and whatever
    ///   `emit` throws.
    mutating func finish(_ emit: (_ line: Data, _ number: Int) throws -> Void) throws {
        if let failure { throw failure }
        precondition(!isFinished, "a JSON lines parser finished twice")
        isFinished = true
        if carriageReturnPending { try append(CollectionOfOne(JSONLinesByte.carriageReturn)) }
        guard !line.isEmpty else { return }
        lineCount += 1
        let last = Data(line)
        line = []
        if !Self.isBlank(last) { try emit(last, lineCount) }
    }

    /// Adds bytes to the line being held, failing for good if it would pass the limit.
    private mutating func append(_ bytes: some Collection<UInt8>) throws {
        guard line.count + bytes.count <= maximumLineSize else { throw fail() }
        line.append(contentsOf: bytes)
    }

    /// Records the failure, for later calls to throw again, and returns it to throw.
    private mutating func fail() -> StreamElementTooLarge {
        let error = StreamElementTooLarge(limit: maximumLineSize)
        failure = error
        return error
    }

    /// Whether a line is empty or only ASCII whitespace (the WHATWG definition: tab, line feed,
    /// form feed, carriage return, space), which a JSON lines reader skips.
    private static func isBlank(_ line: some Sequence<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0C || $0 == 0x0D }
    }
}

/// The bytes that end JSON lines.
private enum JSONLinesByte {
    /// LF, which ends a line.
    static let lineFeed: UInt8 = 0x0A
    /// CR, dropped right before an LF.
    static let carriageReturn: UInt8 = 0x0D
}
