/// A canonical Huffman code (RFC 1951 §3.2.2) as a lookup table, so that a symbol costs one or
/// two array reads rather than a walk down a tree, bit by bit.
///
/// Deflate sends codes most significant bit first inside a stream read least significant bit
/// first, so the table is indexed by the next `bits` bits of the stream as they come (the code
/// reversed). Codes longer than `bits` go through a link in that primary table to a subtable
/// indexed by the bits that follow, sized for the longest code under that link.
///
/// Each entry is a `UInt32` (see ``HuffmanEntry``): how many bits to consume, flags, and a value.
package struct HuffmanTable: Sendable {
    /// What a symbol of the code stands for, which decides the value in its entries.
    package enum Alphabet: Sendable {
        case literalsAndLengths, distances, codeLengths

        fileprivate var payloads: [UInt32] {
            switch self {
            case .literalsAndLengths: HuffmanEntry.literalAndLengthPayloads
            case .distances: HuffmanEntry.distancePayloads
            case .codeLengths: HuffmanEntry.codeLengthPayloads
            }
        }
    }

    /// The primary table (`1 << bits` entries) followed by the subtables.
    package private(set) var entries: [UInt32] = []
    /// How many bits of the stream index the primary table.
    package private(set) var bits = 1
    /// Scratch for `build`: the symbols in canonical order (by length, then by symbol).
    private var sorted: [UInt16] = []

    /// Makes this the table of the code in which symbol `i` has `lengths[i]` bits (0: unused),
    /// with a primary table of at most `primaryBits` bits. False when the lengths are not a code:
    /// over-subscribed, or incomplete other than the one code of one bit that RFC 1951 allows.
    /// A code without symbols is accepted (every lookup finds an invalid entry).
    package mutating func build(lengths: ArraySlice<UInt8>, alphabet: Alphabet, primaryBits: Int) -> Bool {
        let payloads = alphabet.payloads
        guard lengths.count <= payloads.count else { return false }
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths {
            guard length <= 15 else { return false }
            counts[Int(length)] += 1
        }
        counts[0] = 0
        var longest = 15
        while longest > 0 && counts[longest] == 0 { longest -= 1 }

        bits = max(1, min(primaryBits, longest))
        entries.removeAll(keepingCapacity: true)
        entries.append(contentsOf: repeatElement(HuffmanEntry.invalid | UInt32(bits), count: 1 << bits))
        if longest == 0 { return true }

        // Each length doubles the room left by the shorter ones; the codes of that length take
        // one unit each.
        var room = 1
        for length in 1...15 {
            room = room << 1 - counts[length]
            if room < 0 { return false }
        }
        if room > 0 && longest != 1 { return false }

        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        sorted.removeAll(keepingCapacity: true)
        sorted.append(contentsOf: repeatElement(0, count: offsets[15] + counts[15]))
        for (symbol, length) in lengths.enumerated() where length != 0 {
            sorted[offsets[Int(length)]] = UInt16(symbol)
            offsets[Int(length)] += 1
        }

        var remaining = counts
        var code = 0
        var index = 0
        var linkedPrefix = -1
        var subtableStart = 0
        var subtableBits = 0
        for length in 1...longest {
            for _ in 0..<counts[length] {
                let entry = payloads[Int(sorted[index])] | UInt32(length)
                index += 1
                if length <= bits {
                    var slot = reversed(code, length)
                    while slot < 1 << bits {
                        entries[slot] = entry
                        slot += 1 << length
                    }
                } else {
                    let prefix = reversed(code >> (length - bits), bits)
                    if prefix != linkedPrefix {
                        // The subtable holds the codes under this prefix: grow it until the codes
                        // still to come (shortest first) fill it.
                        var size = length - bits
                        var left = 1 << size
                        while size + bits < longest {
                            left -= remaining[size + bits]
                            if left <= 0 { break }
                            size += 1
                            left <<= 1
                        }
                        subtableStart = entries.count
                        subtableBits = size
                        linkedPrefix = prefix
                        guard subtableStart < 1 << 16 else { return false }
                        let unused = HuffmanEntry.invalid | UInt32(bits + size)
                        entries.append(contentsOf: repeatElement(unused, count: 1 << size))
                        entries[prefix] = HuffmanEntry.link | UInt32(subtableStart) << 16 | UInt32(size)
                    }
                    let tail = length - bits
                    guard tail <= subtableBits else { return false }
                    var slot = reversed(code & (1 << tail - 1), tail)
                    while slot < 1 << subtableBits {
                        entries[subtableStart + slot] = entry
                        slot += 1 << tail
                    }
                }
                remaining[length] -= 1
                code += 1
            }
            code <<= 1
        }
        return true
    }

    /// The low `count` bits of `code`, in the opposite order.
    private func reversed(_ code: Int, _ count: Int) -> Int {
        var result = 0
        var code = code
        for _ in 0..<count {
            result = result << 1 | code & 1
            code >>= 1
        }
        return result
    }
}

/// The layout of a ``HuffmanTable`` entry: bits 0–7 are how many bits the code takes (for a
/// link, the subtable's index bits); bits 8–11 how many extra bits follow a length or distance
/// symbol; bits 12–15 the flags below; bits 16–31 the value (a literal byte, a base length or
/// distance, a code length symbol, a subtable's offset). A length or distance has no flag.
package enum HuffmanEntry {
    package static let literal: UInt32 = 0x8000
    package static let link: UInt32 = 0x4000
    package static let endOfBlock: UInt32 = 0x2000
    /// No code, or a symbol that deflate does not define (lengths 286–287, distances 30–31).
    package static let invalid: UInt32 = 0x1000

    /// RFC 1951 §3.2.5: the base lengths of symbols 257–285 and their extra bits.
    private static let lengthBases: [UInt32] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163,
        195, 227, 258,
    ]
    private static let lengthExtraBits: [UInt32] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    /// RFC 1951 §3.2.5: the base distances of symbols 0–29 and their extra bits.
    private static let distanceBases: [UInt32] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049,
        3073, 4097, 6145, 8193, 12289, 16385, 24577,
    ]

    package static let literalAndLengthPayloads: [UInt32] = (0..<288).map { symbol in
        switch symbol {
        case 0..<256: literal | UInt32(symbol) << 16
        case 256: endOfBlock
        case 257...285: lengthBases[symbol - 257] << 16 | lengthExtraBits[symbol - 257] << 8
        default: invalid
        }
    }

    package static let distancePayloads: [UInt32] = (0..<32).map { symbol in
        symbol < 30 ? distanceBases[symbol] << 16 | UInt32(max(0, symbol / 2 - 1)) << 8 : invalid
    }

    package static let codeLengthPayloads: [UInt32] = (0..<19).map { UInt32($0) << 16 }
}
