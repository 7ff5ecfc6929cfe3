/// Gathers one line of a head, a trailer section or a chunk-size line, across any split of the
/// bytes (down to one byte, and between CR and LF).
///
/// A line ends with CRLF or, as RFC 9112 §2.2 lets a recipient accept, a bare LF; a CR not
/// followed by LF is an error, never taken for a line end or kept in the line. A line longer
/// than the limit is refused as soon as its bytes pass it, before its end arrives.
package struct LineReader: Sendable {
    /// The line read so far, without its line end.
    package private(set) var line: [UInt8] = []
    /// Whether the last byte read was a CR, so the next must be LF.
    private var sawCarriageReturn = false
    private let maximumLength: Int
    private let section: WireError.Section

    package init(maximumLength: Int, section: WireError.Section) {
        self.maximumLength = max(0, maximumLength)
        self.section = section
    }

    /// Whether no byte of a line has been read since the last `clear()`.
    package var isEmpty: Bool { line.isEmpty && !sawCarriageReturn }

    /// Reads from `bytes[index...]`, at most `budget` bytes (at least 1), up to the end of a
    /// line, moving `index` past what it read. Returns whether `line` now holds a whole line;
    /// when not, every byte it could read was read.
    package mutating func read(_ bytes: UnsafeRawBufferPointer, at index: inout Int, budget: Int) throws(WireError) -> Bool {
        let end = budget >= bytes.count - index ? bytes.count : index + budget
        while index < end {
            let byte = bytes[index]
            if sawCarriageReturn {
                guard byte == WireText.lineFeed else { throw .bareCarriageReturn(in: section) }
                index += 1
                sawCarriageReturn = false
                return true
            }
            switch byte {
            case WireText.lineFeed:
                index += 1
                return true
            case WireText.carriageReturn:
                index += 1
                sawCarriageReturn = true
            default:
                // A run of line bytes, looked at no further than one past the room left.
                let room = maximumLength - line.count
                let cap = room >= end - index ? end : index + room + 1
                var stop = index + 1
                while stop < cap, bytes[stop] != WireText.lineFeed, bytes[stop] != WireText.carriageReturn { stop += 1 }
                guard stop - index <= room else { throw .lineTooLong(in: section, limit: maximumLength) }
                line.append(contentsOf: bytes[index..<stop])
                index = stop
            }
        }
        return false
    }

    /// Forgets the line, to read the next.
    package mutating func clear() {
        line.removeAll(keepingCapacity: true)
        sawCarriageReturn = false
    }
}
