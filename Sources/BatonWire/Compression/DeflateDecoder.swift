/// Decodes a deflate stream (RFC 1951) into a window buffer, resumably: it stops wherever the
/// input runs out (inside a block header, a code, a match, a stored block) and goes on with the
/// next input as if it had never stopped.
///
/// The window buffer holds the last 32 KiB of output (what matches may refer back to) followed
/// by up to 64 KiB of new output; when those 64 KiB are decoded they are passed on, and when the
/// buffer is full its last 32 KiB slide to the start. Memory stays at about 100 KiB whatever the
/// stream.
package struct DeflateDecoder: Sendable {
    package typealias Output = (UnsafeRawBufferPointer) throws -> Void

    package enum State: Sendable, Equatable {
        case blockHeader
        case storedLength
        case stored(remaining: Int)
        /// A dynamic block's HLIT, HDIST and HCLEN.
        case tableSizes
        case codeLengthCodes(index: Int)
        case codeLengths(index: Int)
        case symbols
        /// A match decoded but not wholly copied (the buffer had to be passed on first).
        case match(length: Int, distance: Int)
        /// The last block has ended; the bits held are aligned to a byte.
        case end
    }

    /// How far back a match may refer (RFC 1951 §2).
    package static let historySize = 32 * 1024
    /// The most output passed on at once.
    package static let chunkSize = 64 * 1024
    package static let capacity = historySize + chunkSize

    package var bits = BitBuffer()
    package var state: State = .blockHeader
    private var isLastBlock = false

    /// History and new output; `position` is where the next byte goes, and the bytes from
    /// `flushed` up to it have not been passed on yet.
    package var window = [UInt8](repeating: 0, count: capacity)
    package var position = 0
    private var flushed = 0

    package var literals = HuffmanTable()
    package var distances = HuffmanTable()
    private var codeLengthCode = HuffmanTable()
    private var hasFixedTables = false
    /// A dynamic block's code lengths: literals and lengths, then distances (or the 19 code length code lengths).
    private var lengths = [UInt8](repeating: 0, count: 320)
    private var literalCount = 0
    private var distanceCount = 0
    private var codeLengthCount = 0

    package var isAtEnd: Bool { state == .end }

    /// Where the output must stop before being passed on: the end of the chunk or of the buffer.
    package var writeEnd: Int { min(Self.capacity, flushed + Self.chunkSize) }

    /// Starts a new stream (a further gzip member); bits held stay, and the window is emptied
    /// since a member's matches may not reach into the one before.
    package mutating func reset() {
        state = .blockHeader
        isLastBlock = false
        position = 0
        flushed = 0
    }

    /// Passes on the bytes decoded since the last time.
    package mutating func flush(_ output: Output) throws {
        let start = flushed
        let end = position
        guard end > start else { return }
        try window.withUnsafeBytes { try output(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
        flushed = end
    }

    /// Makes sure there is room for at least one byte: passes the chunk on when it is full,
    /// and slides the last 32 KiB to the start when the buffer is.
    package mutating func makeRoom(_ output: Output) throws {
        if position >= writeEnd { try flush(output) }
        if position >= Self.capacity {
            window.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                base.update(from: base + (Self.capacity - Self.historySize), count: Self.historySize)
            }
            position = Self.historySize
            flushed = Self.historySize
        }
    }

    /// Decodes `input` from `position` until it runs out or the stream ends (``isAtEnd``). Full
    /// chunks go to `output`; the rest waits for ``flush(_:)``.
    package mutating func decode(_ input: UnsafeRawBufferPointer, at position: inout Int, output: Output) throws {
        while true {
            switch state {
            case .blockHeader:
                guard bits.fill(3, from: input, at: &position) else { return }
                isLastBlock = bits.take(1) == 1
                switch bits.take(2) {
                case 0:
                    bits.alignToByte()
                    state = .storedLength
                case 1:
                    useFixedTables()
                    state = .symbols
                case 2:
                    state = .tableSizes
                default:
                    throw InflateError.invalidBlockType
                }
            case .storedLength:
                guard bits.fill(32, from: input, at: &position) else { return }
                let length = bits.take(16)
                guard bits.take(16) == ~length & 0xffff else { throw InflateError.invalidStoredLength }
                state = length == 0 ? endOfBlock() : .stored(remaining: Int(length))
            case .stored(let remaining):
                guard try copyStored(remaining, from: input, at: &position, output: output) else { return }
            case .tableSizes:
                guard bits.fill(14, from: input, at: &position) else { return }
                literalCount = Int(bits.take(5)) + 257
                distanceCount = Int(bits.take(5)) + 1
                codeLengthCount = Int(bits.take(4)) + 4
                guard literalCount <= 286, distanceCount <= 30 else {
                    throw InflateError.invalidHuffmanCode("declares more length or distance codes than deflate has")
                }
                state = .codeLengthCodes(index: 0)
            case .codeLengthCodes(var index):
                while index < codeLengthCount {
                    guard bits.fill(3, from: input, at: &position) else {
                        state = .codeLengthCodes(index: index)
                        return
                    }
                    lengths[Self.codeLengthOrder[index]] = UInt8(bits.take(3))
                    index += 1
                }
                for unsent in Self.codeLengthOrder[codeLengthCount...] { lengths[unsent] = 0 }
                guard codeLengthCode.build(lengths: lengths[0..<19], alphabet: .codeLengths, primaryBits: 7),
                    lengths[0..<19].contains(where: { $0 != 0 })
                else { throw InflateError.invalidHuffmanCode("has an invalid code for its code lengths") }
                state = .codeLengths(index: 0)
            case .codeLengths(let index):
                guard try readCodeLengths(from: index, input, at: &position) else { return }
                try buildDynamicTables()
                state = .symbols
            case .symbols, .match:
                guard try decodeSymbols(input, at: &position, output: output) else { return }
                state = endOfBlock()
            case .end:
                return
            }
        }
    }

    /// The state after a block: the next block's header, or the end (aligned to a byte, where
    /// a trailer begins).
    private mutating func endOfBlock() -> State {
        guard isLastBlock else { return .blockHeader }
        bits.alignToByte()
        return .end
    }

    /// Copies a stored block's bytes (those read ahead into the bit buffer first); true when
    /// the block is done.
    private mutating func copyStored(
        _ remaining: Int, from input: UnsafeRawBufferPointer, at inputPosition: inout Int, output: Output
    ) throws -> Bool {
        var remaining = remaining
        defer { state = remaining > 0 ? .stored(remaining: remaining) : endOfBlock() }
        while remaining > 0 {
            try makeRoom(output)
            if bits.count >= 8 {
                window[position] = UInt8(truncatingIfNeeded: bits.take(8))
                position += 1
                remaining -= 1
                continue
            }
            let count = min(remaining, writeEnd - position, input.count - inputPosition)
            guard count > 0 else { return false }
            let source = UnsafeRawBufferPointer(rebasing: input[inputPosition..<inputPosition + count])
            let start = position
            window.withUnsafeMutableBytes { window in
                UnsafeMutableRawBufferPointer(rebasing: window[start..<start + count]).copyMemory(from: source)
            }
            position += count
            inputPosition += count
            remaining -= count
        }
        return true
    }

    /// Reads the literal/length and distance code lengths of a dynamic block (RFC 1951 §3.2.7),
    /// each a code length symbol and its repeat bits taken whole, from `index` on; true when all
    /// are read.
    private mutating func readCodeLengths(
        from index: Int, _ input: UnsafeRawBufferPointer, at position: inout Int
    ) throws -> Bool {
        let total = literalCount + distanceCount
        var index = index
        defer { state = .codeLengths(index: index) }
        let entries = codeLengthCode.entries
        let mask = UInt64(1) << UInt64(codeLengthCode.bits) - 1
        while index < total {
            bits.fillAll(from: input, at: &position)
            // The code length code has at most 7 bits a code, so its table has no links.
            let entry = entries[Int(bits.bits & mask)]
            let length = Int(entry & 0xff)
            guard length <= bits.count else { return false }
            guard entry & HuffmanEntry.invalid == 0 else {
                throw InflateError.invalidHuffmanCode("uses a code length code it does not define")
            }
            let symbol = Int(entry >> 16)
            if symbol < 16 {
                bits.drop(length)
                lengths[index] = UInt8(symbol)
                index += 1
                continue
            }
            // 16: the previous length 3–6 times; 17: zero 3–10 times; 18: zero 11–138 times.
            let (extraBits, base) = symbol == 16 ? (2, 3) : symbol == 17 ? (3, 3) : (7, 11)
            guard length + extraBits <= bits.count else { return false }
            bits.drop(length)
            let count = base + Int(bits.take(extraBits))
            guard symbol != 16 || index > 0 else {
                throw InflateError.invalidHuffmanCode("repeats a code length before giving one")
            }
            guard count <= total - index else {
                throw InflateError.invalidHuffmanCode("repeats a code length past the last code")
            }
            let value = symbol == 16 ? lengths[index - 1] : 0
            for _ in 0..<count {
                lengths[index] = value
                index += 1
            }
        }
        return true
    }

    private mutating func buildDynamicTables() throws {
        guard lengths[256] != 0 else { throw InflateError.invalidHuffmanCode("has no end-of-block code") }
        guard literals.build(lengths: lengths[0..<literalCount], alphabet: .literalsAndLengths, primaryBits: 10) else {
            throw InflateError.invalidHuffmanCode("has an invalid literal/length code")
        }
        let distanceLengths = lengths[literalCount..<literalCount + distanceCount]
        guard distances.build(lengths: distanceLengths, alphabet: .distances, primaryBits: 8) else {
            throw InflateError.invalidHuffmanCode("has an invalid distance code")
        }
        hasFixedTables = false
    }

    /// The fixed codes of RFC 1951 §3.2.6, built once.
    private mutating func useFixedTables() {
        guard !hasFixedTables else { return }
        literals = Self.fixedLiterals
        distances = Self.fixedDistances
        hasFixedTables = true
    }

    private static let fixedLiterals: HuffmanTable = {
        var table = HuffmanTable()
        let lengths = (0..<288).map { symbol -> UInt8 in symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8 }
        _ = table.build(lengths: lengths[...], alphabet: .literalsAndLengths, primaryBits: 10)
        return table
    }()

    private static let fixedDistances: HuffmanTable = {
        var table = HuffmanTable()
        _ = table.build(lengths: [UInt8](repeating: 5, count: 32)[...], alphabet: .distances, primaryBits: 8)
        return table
    }()

    /// The order in which a dynamic block sends the code length code's lengths.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
}
