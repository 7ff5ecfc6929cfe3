/// The inside of a Huffman block (RFC 1951 §3.2.5): literals, and matches of a length and a
/// distance, until the end-of-block symbol.
///
/// Two paths: a fast one that runs while at least 8 input bytes and room for the longest match
/// remain, refilling 64 bits at a time without checks; and a careful one for the edges, which
/// decodes one literal or a whole match at a time only when all its bits are at hand (else it
/// waits for more input, consuming nothing of the symbol).
extension DeflateDecoder {
    /// Decodes symbols until the end of the block (true) or of the input (false).
    package mutating func decodeSymbols(
        _ input: UnsafeRawBufferPointer, at position: inout Int, output: Output
    ) throws -> Bool {
        if case .match(let length, let distance) = state {
            state = .symbols
            try copyMatch(length: length, distance: distance, output: output)
        }
        while true {
            if input.count - position >= 8, writeEnd - self.position >= 258 {
                if try decodeFast(input, at: &position) { return true }
                continue
            }
            switch try decodeOne(input, at: &position, output: output) {
            case .decoded: continue
            case .needInput: return false
            case .endOfBlock: return true
            }
        }
    }

    private enum Step {
        case decoded, needInput, endOfBlock
    }

    /// One literal, match or end of block, if all its bits are at hand.
    private mutating func decodeOne(
        _ input: UnsafeRawBufferPointer, at position: inout Int, output: Output
    ) throws -> Step {
        bits.fillAll(from: input, at: &position)
        let available = bits.count
        let held = bits.bits

        let entry = Self.lookUp(held, in: literals)
        let codeLength = Int(entry & 0xff)
        guard codeLength <= available else { return .needInput }
        if entry & HuffmanEntry.literal != 0 {
            try makeRoom(output)
            window[self.position] = UInt8(truncatingIfNeeded: entry >> 16)
            self.position += 1
            bits.drop(codeLength)
            return .decoded
        }
        if entry & HuffmanEntry.endOfBlock != 0 {
            bits.drop(codeLength)
            return .endOfBlock
        }
        guard entry & HuffmanEntry.invalid == 0 else {
            throw InflateError.invalidHuffmanCode("uses a literal/length code it does not define")
        }
        let lengthExtra = Int(entry >> 8 & 0xf)
        var used = codeLength + lengthExtra
        guard used <= available else { return .needInput }
        let length = Int(entry >> 16) + Self.low(held &>> UInt64(codeLength), UInt64(lengthExtra))

        let distanceEntry = Self.lookUp(held &>> UInt64(used), in: distances)
        let distanceCodeLength = Int(distanceEntry & 0xff)
        guard used + distanceCodeLength <= available else { return .needInput }
        guard distanceEntry & HuffmanEntry.invalid == 0 else {
            throw InflateError.invalidHuffmanCode("uses a distance code it does not define")
        }
        used += distanceCodeLength
        let distanceExtra = Int(distanceEntry >> 8 & 0xf)
        guard used + distanceExtra <= available else { return .needInput }
        let distance = Int(distanceEntry >> 16) + Self.low(held &>> UInt64(used), UInt64(distanceExtra))
        used += distanceExtra
        guard distance <= self.position else { throw InflateError.invalidDistance }
        bits.drop(used)
        try copyMatch(length: length, distance: distance, output: output)
        return .decoded
    }

    /// The entry for the code at the start of `held`, through a link if there is one.
    @inline(__always)
    private static func lookUp(_ held: UInt64, in table: HuffmanTable) -> UInt32 {
        let bits = UInt64(table.bits)
        let entry = table.entries[low(held, bits)]
        guard entry & HuffmanEntry.link != 0 else { return entry }
        return table.entries[Int(truncatingIfNeeded: entry >> 16) + low(held &>> bits, UInt64(entry & 0xff))]
    }

    /// `entry` itself, or if it is a link, the entry its subtable has for the bits after the
    /// first `primaryBits` of `held`.
    @inline(__always)
    private static func followLink(
        _ entry: UInt32, _ held: UInt64, _ primaryBits: UInt64, _ table: UnsafeBufferPointer<UInt32>
    ) -> UInt32 {
        guard entry & HuffmanEntry.link != 0 else { return entry }
        return table[Int(truncatingIfNeeded: entry >> 16) &+ low(held &>> primaryBits, UInt64(entry & 0xff))]
    }

    /// The low `count` bits of `held` (`count` below 64).
    @inline(__always)
    private static func low(_ held: UInt64, _ count: UInt64) -> Int {
        Int(truncatingIfNeeded: held & (UInt64(1) &<< count &- 1))
    }

    /// Copies a match a piece at a time, passing output on between pieces when the chunk fills.
    private mutating func copyMatch(length: Int, distance: Int, output: Output) throws {
        var left = length
        while left > 0 {
            do {
                try makeRoom(output)
            } catch {
                state = .match(length: left, distance: distance)
                throw error
            }
            let count = min(left, writeEnd - position)
            for index in position..<position + count { window[index] = window[index - distance] }
            position += count
            left -= count
        }
    }

    /// Decodes symbols while 8 bytes of input and 258 bytes of room remain; true at the end of
    /// the block. The bits of the input's next bytes are read 64 at a time, whole bytes
    /// consumed; bits beyond `count` may be set meanwhile and are cleared on the way out.
    private mutating func decodeFast(_ input: UnsafeRawBufferPointer, at position: inout Int) throws -> Bool {
        guard let inputBase = input.baseAddress else { return false }
        let literalEntries = literals.entries
        let distanceEntries = distances.entries
        let literalBits = UInt64(literals.bits)
        let distanceBits = UInt64(distances.bits)
        guard literalEntries.count >= 1 << literalBits, distanceEntries.count >= 1 << distanceBits else { return false }

        var held = bits.bits
        var count = UInt64(bits.count)
        var inputPosition = position
        let inputEnd = input.count - 8
        var outputPosition = self.position
        let outputEnd = writeEnd - 258
        var endOfBlock = false
        var window = self.window
        self.window = []
        defer { self.window = window }

        try window.withUnsafeMutableBufferPointer { windowBuffer in
            try literalEntries.withUnsafeBufferPointer { literalTable in
                try distanceEntries.withUnsafeBufferPointer { distanceTable in
                    guard let out = windowBuffer.baseAddress else { return }
                    while inputPosition <= inputEnd, outputPosition <= outputEnd {
                        let word = inputBase.loadUnaligned(fromByteOffset: inputPosition, as: UInt64.self)
                        held |= UInt64(littleEndian: word) &<< count
                        inputPosition &+= Int(truncatingIfNeeded: (63 &- count) &>> 3)
                        count |= 56

                        var entry = literalTable[Self.low(held, literalBits)]
                        entry = Self.followLink(entry, held, literalBits, literalTable)
                        held &>>= UInt64(entry & 0xff)
                        count &-= UInt64(entry & 0xff)
                        if entry & HuffmanEntry.literal != 0 {
                            out[outputPosition] = UInt8(truncatingIfNeeded: entry >> 16)
                            outputPosition &+= 1
                            continue
                        }
                        if entry & (HuffmanEntry.endOfBlock | HuffmanEntry.invalid) != 0 {
                            guard entry & HuffmanEntry.invalid == 0 else {
                                throw InflateError.invalidHuffmanCode("uses a literal/length code it does not define")
                            }
                            endOfBlock = true
                            return
                        }
                        let lengthExtra = UInt64(entry >> 8 & 0xf)
                        let length = Int(truncatingIfNeeded: entry >> 16) &+ Self.low(held, lengthExtra)
                        held &>>= lengthExtra
                        count &-= lengthExtra

                        var distanceEntry = distanceTable[Self.low(held, distanceBits)]
                        distanceEntry = Self.followLink(distanceEntry, held, distanceBits, distanceTable)
                        guard distanceEntry & HuffmanEntry.invalid == 0 else {
                            throw InflateError.invalidHuffmanCode("uses a distance code it does not define")
                        }
                        held &>>= UInt64(distanceEntry & 0xff)
                        count &-= UInt64(distanceEntry & 0xff)
                        let distanceExtra = UInt64(distanceEntry >> 8 & 0xf)
                        let distance = Int(truncatingIfNeeded: distanceEntry >> 16) &+ Self.low(held, distanceExtra)
                        held &>>= distanceExtra
                        count &-= distanceExtra
                        guard distance <= outputPosition else { throw InflateError.invalidDistance }

                        let destination = out + outputPosition
                        let source = destination - distance
                        if distance >= length {
                            destination.update(from: source, count: length)
                        } else if distance == 1 {
                            destination.update(repeating: source.pointee, count: length)
                        } else {
                            for index in 0..<length { destination[index] = source[index] }
                        }
                        outputPosition &+= length
                    }
                }
            }
        }
        bits.bits = held & (UInt64(1) &<< count &- 1)
        bits.count = Int(truncatingIfNeeded: count)
        position = inputPosition
        self.position = outputPosition
        return endOfBlock
    }
}
