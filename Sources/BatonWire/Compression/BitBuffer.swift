/// The bits of a deflate stream taken from the input but not yet used, least significant first
/// (RFC 1951 §3.1.1), so that decoding can stop at any bit and go on with the next input.
///
/// Bits above `count` are zero. Whole bytes left over when a stream ends (its trailer's first
/// bytes, read ahead) are given back by ``nextByte(from:at:)``, before the input's.
package struct BitBuffer: Sendable {
    package var bits: UInt64 = 0
    package var count = 0

    /// Takes input bytes until at least `needed` bits are held (`needed` at most 56); false if
    /// the input runs out first.
    @inline(__always)
    package mutating func fill(_ needed: Int, from input: UnsafeRawBufferPointer, at position: inout Int) -> Bool {
        while count < needed {
            guard position < input.count else { return false }
            bits |= UInt64(input[position]) &<< UInt64(count)
            count += 8
            position += 1
        }
        return true
    }

    /// Takes as many input bytes as fit (at least 56 bits held after, unless the input runs out).
    @inline(__always)
    package mutating func fillAll(from input: UnsafeRawBufferPointer, at position: inout Int) {
        _ = fill(56, from: input, at: &position)
    }

    /// The next `count` bits (at most 32), not consumed.
    @inline(__always)
    package func peek(_ count: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: bits & (UInt64(1) &<< UInt64(count) &- 1))
    }

    /// Consumes `count` bits, which must be held.
    @inline(__always)
    package mutating func drop(_ count: Int) {
        bits &>>= UInt64(count)
        self.count -= count
    }

    /// The next `count` bits (at most 32), which must be held, consumed.
    @inline(__always)
    package mutating func take(_ count: Int) -> UInt32 {
        let value = peek(count)
        drop(count)
        return value
    }

    /// Drops the bits up to the next byte boundary of the stream.
    package mutating func alignToByte() {
        drop(count & 7)
    }

    /// The next byte at a byte boundary: a whole byte held here first, else the input's next.
    package mutating func nextByte(from input: UnsafeRawBufferPointer, at position: inout Int) -> UInt8? {
        if count >= 8 { return UInt8(truncatingIfNeeded: take(8)) }
        guard position < input.count else { return nil }
        position += 1
        return input[position - 1]
    }

    /// Whether a whole byte is held or the input has one left.
    package func hasByte(in input: UnsafeRawBufferPointer, at position: Int) -> Bool {
        count >= 8 || position < input.count
    }

    /// Gives back bytes read too early (the two bytes that turned out not to be a zlib header),
    /// before anything else is held.
    package mutating func pushBack(_ first: UInt8, _ second: UInt8) {
        bits = UInt64(first) | UInt64(second) << 8 | bits << 16
        count += 16
    }
}
