// A libFuzzer target for Baton's JSON lines parser (Sources/BatonClient/Streams). Each input is one
// server's body, parsed with a roomy limit and a small one, whole, one byte at a time (inputs up
// to 4 KiB) and in splits drawn from the input. The parser must never trap, every split must give
// the same lines, numbers and error, the bytes it holds must never pass its limit, and the lines
// must be those of `reference`, a plain split of the whole body. Build and run: see README beside
// this file.
import Foundation

/// What one parse of an input gave, whatever the split.
struct Outcome: Equatable {
    var lines: [[UInt8]] = []
    var numbers: [Int] = []
    var error: StreamElementTooLarge?
}

/// Parses `bytes` in pieces of the sizes `nextCut` gives, then ends the body.
func drive(_ bytes: UnsafeRawBufferPointer, limit: Int, nextCut: () -> Int) -> Outcome {
    var parser = JSONLinesParser(maximumLineSize: limit)
    var outcome = Outcome()
    func record(_ line: Data, _ number: Int) {
        check(!line.isEmpty, "an empty line")
        check(line.count <= limit, "a line of \(line.count) bytes, over the limit of \(limit)")
        check(!line.contains(0x0A), "an LF in a line")
        check(number > (outcome.numbers.last ?? 0), "line \(number) after line \(outcome.numbers.last ?? 0)")
        outcome.lines.append(Array(line))
        outcome.numbers.append(number)
    }
    do {
        var index = 0
        repeat {
            let count = min(max(1, nextCut()), bytes.count - index)
            try parser.feed(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]), record)
            check(parser.heldBytes <= limit, "\(parser.heldBytes) bytes held, over the limit of \(limit)")
            index += count
        } while index < bytes.count
        try parser.finish(record)
    } catch let error as StreamElementTooLarge {
        check(error.limit == limit, "an error naming another limit")
        outcome.error = error
        // A failed parser says the same again.
        do { try parser.finish(record) } catch let again as StreamElementTooLarge { check(again == error, "a second error") } catch {
            check(false, "a second error of another type")
        }
    } catch {
        check(false, "an error that is not StreamElementTooLarge: \(error)")
    }
    return outcome
}

/// The body split plainly: at every LF, a CR before it dropped, the last piece a line if it is
/// not empty; blank lines counted but left out; the first line over the limit ends it all.
func reference(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Outcome {
    var pieces = Array(bytes).split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    if pieces.last?.isEmpty == true { pieces.removeLast() }
    var outcome = Outcome()
    for (index, piece) in pieces.enumerated() {
        var line = piece
        if index < pieces.count - 1 || bytes.last == 0x0A, line.last == 0x0D { line.removeLast() }
        if line.count > limit {
            outcome.error = StreamElementTooLarge(limit: limit)
            break
        }
        if line.allSatisfy({ [0x20, 0x09, 0x0A, 0x0C, 0x0D].contains($0) }) { continue }
        outcome.lines.append(line)
        outcome.numbers.append(index + 1)
    }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let seed = seed(of: bytes)
    // The small limit is drawn from the input too, so that the mutator can move it.
    for limit in [1 << 20, Int(seed % 24)] {
        let whole = drive(bytes, limit: limit) { Int.max }
        if size <= 4096 {
            let single = drive(bytes, limit: limit) { 1 }
            check(single == whole, "byte by byte differs from whole: \(single) vs \(whole)")
        }
        var random = SplitMix(state: seed)
        let split = drive(bytes, limit: limit) { Int(random.next() % 17) + 1 }
        check(split == whole, "random splits differ from whole: \(split) vs \(whole)")
        let expected = reference(bytes, limit: limit)
        check(whole == expected, "differs from the reference: \(whole) vs \(expected)")
    }
    return 0
}
