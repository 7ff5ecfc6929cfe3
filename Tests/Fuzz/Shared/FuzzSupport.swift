/// What every fuzz target of `.ci/fuzz` shares: its check, its seeded generator, and the seed it
/// draws from an input (so that the splits it makes of an input are the same every run).

/// Stops the fuzzer with `message` when `condition` does not hold: a finding.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError(message()) }
}

/// A small deterministic generator (SplitMix64), seeded from the input.
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The FNV-1a hash of `bytes`: a seed that follows the input.
func seed(of bytes: UnsafeRawBufferPointer) -> UInt64 {
    var seed: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in bytes { seed = (seed ^ UInt64(byte)) &* 0x100_0000_01B3 }
    return seed
}
