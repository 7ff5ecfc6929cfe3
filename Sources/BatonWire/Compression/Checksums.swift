/// CRC-32 as gzip uses it (RFC 1952 §8: the reflected polynomial 0xEDB88320, starting from and
/// finished with all ones), eight bytes a step ("slicing by 8") for speed.
package struct CRC32: Sendable {
    /// The register, before the final complement.
    private var register: UInt32 = 0xffff_ffff

    package init() {}

    /// The checksum of the bytes so far.
    package var value: UInt32 { ~register }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        var crc = register
        var offset = 0
        let count = bytes.count
        CRC32.tables.withUnsafeBufferPointer { table in
            while count - offset >= 8 {
                let low = UInt32(littleEndian: start.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) ^ crc
                let high = UInt32(littleEndian: start.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
                crc = table[7 &* 256 &+ Int(low & 0xff)] ^ table[6 &* 256 &+ Int((low >> 8) & 0xff)]
                    ^ table[5 &* 256 &+ Int((low >> 16) & 0xff)] ^ table[4 &* 256 &+ Int(low >> 24)]
                    ^ table[3 &* 256 &+ Int(high & 0xff)] ^ table[2 &* 256 &+ Int((high >> 8) & 0xff)]
                    ^ table[1 &* 256 &+ Int((high >> 16) & 0xff)] ^ table[Int(high >> 24)]
                offset += 8
            }
            while offset < count {
                crc = table[Int((crc ^ UInt32(start.load(fromByteOffset: offset, as: UInt8.self))) & 0xff)] ^ (crc >> 8)
                offset += 1
            }
        }
        register = crc
    }

    package mutating func update(_ byte: UInt8) {
        register = CRC32.tables[Int((register ^ UInt32(byte)) & 0xff)] ^ (register >> 8)
    }

    /// Eight tables of 256 entries: the first is the classic byte table; entry `i` of table `k`
    /// is the register after byte `i` followed by `k` zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xedb8_8320 ^ (crc >> 1) : crc >> 1 }
            tables[byte] = crc
        }
        for table in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(table - 1) * 256 + byte]
                tables[table * 256 + byte] = tables[Int(previous & 0xff)] ^ (previous >> 8)
            }
        }
        return tables
    }()
}

/// Adler-32 as zlib uses it (RFC 1950 §8.2): two sums modulo 65521, the second of the first.
package struct Adler32: Sendable {
    private var low: UInt32 = 1
    private var high: UInt32 = 0

    /// The checksum of the bytes so far.
    package var value: UInt32 { high << 16 | low }

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var low = self.low
        var high = self.high
        var offset = 0
        while offset < bytes.count {
            // 5552 is the most bytes after which `high` still cannot pass 2^32 before the modulo.
            let end = offset + min(5552, bytes.count - offset)
            while offset < end {
                low &+= UInt32(bytes[offset])
                high &+= low
                offset += 1
            }
            low %= 65521
            high %= 65521
        }
        self.low = low
        self.high = high
    }
}
