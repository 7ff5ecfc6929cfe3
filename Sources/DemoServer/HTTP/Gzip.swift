/// A gzip encoder (RFC 1952 around RFC 1951 deflate), for `X-Demo-Fault: gzip`: small enough to
/// read in one sitting, and good at the one thing the fault needs, squeezing long runs of one
/// byte (a 64 MiB run becomes about 400 KiB), so that a test can send a body that inflates far
/// past what the client keeps.
///
/// It writes a single block with the fixed Huffman codes of RFC 1951 §3.2.6: a run of one byte
/// is a literal followed by matches of length 258 at distance 1; everything else is literals.
enum Gzip {
    static func compress(_ bytes: [UInt8]) -> [UInt8] {
        var out = BitWriter()
        out.bytes = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]  // magic, deflate, no flags, no time, unknown OS
        out.write(1, bits: 1)  // BFINAL: the only block
        out.write(1, bits: 2)  // BTYPE 01: fixed Huffman codes
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            var run = 1
            while index + run < bytes.count, bytes[index + run] == byte { run += 1 }
            out.writeLiteral(byte)
            var remaining = run - 1
            while remaining >= 258 {
                out.writeCode(0b1100_0101, length: 8)  // symbol 285: length 258, no extra bits
                out.writeCode(0, length: 5)  // distance code 0: distance 1
                remaining -= 258
            }
            for _ in 0..<remaining { out.writeLiteral(byte) }
            index += run
        }
        out.writeCode(0, length: 7)  // symbol 256: end of block
        out.flush()
        out.appendLittleEndian(crc32(bytes))
        out.appendLittleEndian(UInt32(truncatingIfNeeded: bytes.count))
        return out.bytes
    }

    /// CRC-32 as gzip's trailer carries it (reflected polynomial 0xEDB88320).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
        return ~crc
    }

    private static let crcTable: [UInt32] = (0..<256).map { value in
        var crc = UInt32(value)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xedb8_8320 ^ (crc >> 1) : crc >> 1 }
        return crc
    }

    /// Packs values least significant bit first, as deflate does; Huffman codes go in most
    /// significant bit first (RFC 1951 §3.1.1).
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var pending: UInt32 = 0
        private var pendingCount = 0

        mutating func write(_ value: UInt32, bits: Int) {
            pending |= value << pendingCount
            pendingCount += bits
            while pendingCount >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: pending))
                pending >>= 8
                pendingCount -= 8
            }
        }

        mutating func writeCode(_ code: UInt32, length: Int) {
            var reversed: UInt32 = 0
            for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
            write(reversed, bits: length)
        }

        /// A literal byte in the fixed code: 0-143 in 8 bits from 0x30, 144-255 in 9 bits from 0x190.
        mutating func writeLiteral(_ byte: UInt8) {
            if byte < 144 { writeCode(0x30 + UInt32(byte), length: 8) } else { writeCode(0x190 + UInt32(byte) - 144, length: 9) }
        }

        mutating func flush() {
            if pendingCount > 0 { write(0, bits: 8 - pendingCount) }
        }

        mutating func appendLittleEndian(_ value: UInt32) {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }
    }
}
