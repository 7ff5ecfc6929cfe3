import TestSupport
// How the streamed-body parsers' tests cut the same bytes into chunks: whole, one byte at a
// time, in two at every place (for short streams) and in seeded random pieces. A parser that
// keeps its promise gives the same outputs every way.

/// One way of cutting a stream's bytes into the chunks a parser is fed.
enum StreamSplit: CustomStringConvertible {
    case whole
    case byteByByte
    /// Two chunks, the first of this many bytes.
    case cut(Int)
    /// Chunks of 1 to 16 bytes, their sizes drawn from a `SplitMix64` with this seed.
    case random(seed: UInt64)

    /// Every split worth trying for `count` bytes: cuts at every place only for short streams,
    /// where they are cheap, and eight random seeds.
    static func all(count: Int) -> [StreamSplit] {
        let cuts = count <= 300 ? (1..<max(1, count)).map(StreamSplit.cut) : []
        return [.whole, .byteByByte] + cuts + (1...8).map { StreamSplit.random(seed: $0) }
    }

    /// The ranges of the chunks, in order, covering `0..<count` (one empty chunk when `count`
    /// is 0, so that parsers see a feed of nothing too).
    func chunks(count: Int) -> [Range<Int>] {
        guard count > 0 else { return [0..<0] }
        switch self {
        case .whole:
            return [0..<count]
        case .byteByByte:
            return (0..<count).map { $0..<($0 + 1) }
        case .cut(let first):
            return [0..<first, first..<count]
        case .random(let seed):
            var generator = SplitMix64(seed: seed)
            var ranges: [Range<Int>] = []
            var start = 0
            while start < count {
                let end = min(count, start + Int.random(in: 1...16, using: &generator))
                ranges.append(start..<end)
                start = end
            }
            return ranges
        }
    }

    var description: String {
        switch self {
        case .whole: "whole"
        case .byteByByte: "byte by byte"
        case .cut(let first): "cut after \(first) bytes"
        case .random(let seed): "in random chunks (seed \(seed))"
        }
    }
}
