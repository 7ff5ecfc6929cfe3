/// SplitMix64 (Steele, Lea, Flood 2014): a tiny generator whose output depends only on its seed,
/// so that a failing split can be replayed from the seed the failure names.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator that always draws the same numbers for `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next number of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
