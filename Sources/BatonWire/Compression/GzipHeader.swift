/// The header of a gzip member (RFC 1952 §2.3), read a byte at a time so that it may arrive
/// split anywhere: the fixed ten bytes, then the optional extra field, file name, comment and
/// header CRC that its flags announce. Nothing of it is kept; the header CRC is checked.
package struct GzipHeader: Sendable {
    private enum Field: Sendable, Equatable {
        case fixed(index: Int)
        case extraLength(index: Int)
        case extra(remaining: Int)
        case name
        case comment
        case headerCRC(index: Int)
        case done
    }

    private enum Flag {
        package static let headerCRC: UInt8 = 0x02
        package static let extra: UInt8 = 0x04
        package static let name: UInt8 = 0x08
        package static let comment: UInt8 = 0x10
        package static let reserved: UInt8 = 0xe0
    }

    /// Whether this member is the body's first: if not, bytes that do not start a member are
    /// trailing data rather than a bad header.
    package let isFirstMember: Bool
    private var field = Field.fixed(index: 0)
    private var flags: UInt8 = 0
    /// The CRC-32 of the header's bytes before the header CRC.
    private var crc = CRC32()
    /// The extra field's length, or the header CRC, as their two bytes arrive.
    private var number = 0

    package init(isFirstMember: Bool) {
        self.isFirstMember = isFirstMember
    }

    /// Takes the header's next byte; true when that byte completes the header.
    package mutating func take(_ byte: UInt8) throws(InflateError) -> Bool {
        switch field {
        case .fixed(let index):
            try check(byte, at: index)
            field = index == 9 ? self.field(after: 0) : .fixed(index: index + 1)
        case .extraLength(let index):
            number |= Int(byte) << (8 * index)
            field = index == 0 ? .extraLength(index: 1) : number > 0 ? .extra(remaining: number) : self.field(after: 1)
        case .extra(let remaining):
            field = remaining > 1 ? .extra(remaining: remaining - 1) : self.field(after: 1)
        case .name:
            if byte == 0 { field = self.field(after: 2) }
        case .comment:
            if byte == 0 { field = self.field(after: 3) }
        case .headerCRC(let index):
            number |= Int(byte) << (8 * index)
            if index == 0 {
                field = .headerCRC(index: 1)
            } else {
                guard UInt32(number) == crc.value & 0xffff else {
                    throw InflateError(.checksumMismatch, "the gzip header's CRC-16 does not match the header")
                }
                field = .done
            }
            return field == .done
        case .done:
            return true
        }
        crc.update(byte)
        return field == .done
    }

    /// Checks byte `index` of the fixed part: the magic bytes, the method (8, deflate), and
    /// flags without reserved bits.
    private mutating func check(_ byte: UInt8, at index: Int) throws(InflateError) {
        switch index {
        case 0, 1:
            guard byte == (index == 0 ? 0x1f : 0x8b) else {
                throw isFirstMember
                    ? .invalidHeader("the body does not start with gzip's magic bytes")
                    : .trailingData(after: "gzip member")
            }
        case 2:
            guard byte == 8 else {
                throw .invalidHeader("the gzip header names compression method \(byte), not deflate")
            }
        case 3:
            guard byte & Flag.reserved == 0 else { throw .invalidHeader("the gzip header sets reserved flags") }
            flags = byte
        default:
            break
        }
    }

    /// The first optional field, after the one numbered `done` (0 the fixed part, 1 the extra
    /// field, 2 the name, 3 the comment), that the flags announce.
    private mutating func field(after done: Int) -> Field {
        number = 0
        if done < 1 && flags & Flag.extra != 0 { return .extraLength(index: 0) }
        if done < 2 && flags & Flag.name != 0 { return .name }
        if done < 3 && flags & Flag.comment != 0 { return .comment }
        if flags & Flag.headerCRC != 0 { return .headerCRC(index: 0) }
        return .done
    }
}
