/// libFuzzer entry for ``Inflater``: every input is fed as gzip and as deflate, with a limit of
/// 1 MiB, whole and in several splits. Whatever the bytes, it must not crash, never pass more
/// than the limit or chunks over 64 KiB, and come to the same output and outcome however the
/// input is split. Built and run by `.ci/fuzz`.
import BatonWire
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let limit = 1 << 20
    // Splits: whole, byte by byte (small inputs), 7 bytes, and sizes drawn from the input itself.
    var splitings: [[Int]] = [[size], [7]]
    if size <= 4096 { splitings.append([1]) }
    if size > 0 { splitings.append(input.prefix(16).map { Int($0) % 97 + 1 }) }
    for format in [Inflater.Format.gzip, .deflate] {
        var first: Outcome?
        for splits in splitings {
            let outcome = Outcome(input, format: format, limit: limit, splits: splits)
            precondition(outcome.produced <= limit, "passed \(outcome.produced) bytes, over the limit")
            if let first {
                precondition(outcome == first, "\(format) split as \(splits): \(outcome), whole: \(first)")
            } else {
                first = outcome
            }
        }
    }
    return 0
}

/// What feeding one input gave: how much output, its checksum, and the error if any.
struct Outcome: Equatable, CustomStringConvertible {
    var produced = 0
    var checksum = CRC32()
    var error: InflateError.Kind?

    init(_ input: UnsafeRawBufferPointer, format: Inflater.Format, limit: Int, splits: [Int]) {
        var inflater = Inflater(format: format, limit: limit)
        var offset = 0
        var index = 0
        do {
            repeat {
                let end = min(input.count, offset + max(1, splits[index % splits.count]))
                index += 1
                try inflater.feed(UnsafeRawBufferPointer(rebasing: input[offset..<end])) { chunk in
                    precondition(!chunk.isEmpty && chunk.count <= 64 * 1024, "a chunk of \(chunk.count) bytes")
                    produced += chunk.count
                    checksum.update(chunk)
                }
                offset = end
            } while offset < input.count
            try inflater.finish()
            precondition(inflater.isFinished, "finish() passed but the inflater is not finished")
        } catch let caught as InflateError {
            error = caught.kind
        } catch {
            preconditionFailure("an error that is not an InflateError: \(error)")
        }
    }

    /// The same result: the same output if both succeeded, the same error if both failed
    /// (unless one passed the limit: where the limit falls among the chunks, and so whether a
    /// later fault is met first, depends on the splits).
    static func == (left: Outcome, right: Outcome) -> Bool {
        switch (left.error, right.error) {
        case (nil, nil): left.produced == right.produced && left.checksum.value == right.checksum.value
        case (.tooLarge?, _?), (_?, .tooLarge?): true
        case (let one?, let other?): one == other
        default: false
        }
    }

    var description: String { "\(produced) bytes, CRC \(checksum.value), \(error.map { "\($0)" } ?? "no error")" }
}
