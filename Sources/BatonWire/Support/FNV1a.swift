/// The 64-bit FNV-1a hash: short, stable names for long keys (an image cache's file names, the
/// ids of stored validators). Not a secure hash: whoever keeps it also keeps, or checks, the key.
package enum FNV1a {
    /// FNV's own offset basis, the usual start.
    package static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325

    /// The hash of `text`'s UTF-8 from `seed`, in 16 lower-case hexadecimal digits.
    package static func hex(_ text: String, seed: UInt64 = offsetBasis) -> String {
        var hash = seed
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
