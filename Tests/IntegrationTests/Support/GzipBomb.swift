/// Gzip bodies that inflate far past their size, made without holding what they inflate to.
enum GzipBomb {
    /// The start of a gzip member of `count` zero bytes, made without holding them: one
    /// fixed-Huffman block (RFC 1951 §3.2.6) of a literal and repeated 258-byte matches at
    /// distance 1. No trailer: a client that keeps its limit stops long before one is due.
    static func zeros(count: Int) -> [UInt8] {
        var bits = BitWriter()
        bits.bytes = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]
        bits.write(1, count: 1)  // the last block
        bits.write(1, count: 2)  // fixed Huffman codes
        bits.writeReversed(0b0011_0000, count: 8)  // literal 0
        var matches = (count - 1) / 258
        // Eight matches of 13 bits are 13 whole bytes: once on a byte boundary, they repeat.
        while !bits.isAligned, matches > 0 {
            bits.writeMatch()
            matches -= 1
        }
        var eight = BitWriter()
        for _ in 0..<8 { eight.writeMatch() }
        for _ in 0..<(matches / 8) { bits.bytes += eight.bytes }
        for _ in 0..<(matches % 8) { bits.writeMatch() }
        bits.flush()
        return bits.bytes
    }

    /// The start of a gzip member of `pattern` (of bytes below 144, and at most 32 long)
    /// repeated to about `count` bytes: its literals, then 258-byte matches at the pattern's
    /// distance, which go on repeating it. A stream of many tiny elements, a thousandfold smaller.
    static func repeating(_ pattern: [UInt8], count: Int) -> [UInt8] {
        precondition(pattern.allSatisfy { $0 < 144 } && (5...8).contains(pattern.count), "a pattern of 5 to 8 bytes below 144")
        var bits = BitWriter()
        bits.bytes = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]
        bits.write(1, count: 1)  // the last block
        bits.write(1, count: 2)  // fixed Huffman codes
        for byte in pattern { bits.writeReversed(0x30 + UInt32(byte), count: 8) }  // literals 0...143
        for _ in 0..<((count - pattern.count) / 258) {
            bits.writeReversed(0b1100_0101, count: 8)  // length 258
            // Distances 5...6 are code 4 and 7...8 code 5, each with one extra bit.
            let distance = pattern.count
            bits.writeReversed(distance <= 6 ? 4 : 5, count: 5)
            bits.write(UInt32(distance <= 6 ? distance - 5 : distance - 7), count: 1)
        }
        bits.flush()
        return bits.bytes
    }

    /// Bits written least significant first, as DEFLATE packs them.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var current: UInt32 = 0
        private var filled = 0

        /// `count` bits of `value`, least significant first (header fields, extra bits).
        mutating func write(_ value: UInt32, count: Int) {
            for bit in 0..<count { push((value >> bit) & 1) }
        }

        /// A Huffman code of `count` bits, most significant first.
        mutating func writeReversed(_ code: UInt32, count: Int) {
            for bit in (0..<count).reversed() { push((code >> bit) & 1) }
        }

        private mutating func push(_ bit: UInt32) {
            current |= bit << filled
            filled += 1
            if filled == 8 { flush() }
        }

        var isAligned: Bool { filled == 0 }

        /// A match of length 258 (symbol 285) at distance 1 (distance code 0).
        mutating func writeMatch() {
            writeReversed(0b1100_0101, count: 8)
            writeReversed(0, count: 5)
        }

        mutating func flush() {
            guard filled > 0 else { return }
            bytes.append(UInt8(current))
            current = 0
            filled = 0
        }
    }
}
