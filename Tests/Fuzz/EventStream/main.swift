// A libFuzzer target for Baton's server-sent event parser (Sources/BatonClient/Streams). Each input is
// one server's event stream, parsed with a roomy limit and a small one, whole, one byte at a time
// (inputs up to 4 KiB) and in splits drawn from the input. The parser must never trap, every split
// must give the same outputs, last event ID and error, the bytes it holds must never pass its
// limit, and with the roomy limit its outputs must be those of `reference`, a plain reading of
// the standard over the whole decoded text. Build and run: see README beside this file.

/// What one parse of an input gave, whatever the split.
struct Outcome: Equatable {
    var outputs: [ServerSentEventParser.Output] = []
    var lastEventID = ""
    var error: StreamElementTooLarge?
}

/// Parses `bytes` in pieces of the sizes `nextCut` gives, then ends the stream.
func drive(_ bytes: UnsafeRawBufferPointer, limit: Int, nextCut: () -> Int) -> Outcome {
    var parser = ServerSentEventParser(maximumEventSize: limit)
    var outcome = Outcome()
    func record(_ output: ServerSentEventParser.Output) {
        switch output {
        case .event(let event):
            check(!event.type.isEmpty, "an event without a type")
            check(!event.type.unicodeScalars.contains { $0 == "\r" || $0 == "\n" }, "a line end in a type")
            check(!event.data.unicodeScalars.contains("\r"), "a CR in data")
            check(!event.id.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" }, "a CR, LF or NUL in an ID")
        case .retry(let milliseconds):
            check(milliseconds >= 0, "a negative retry")
        }
        outcome.outputs.append(output)
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
        check(parser.heldBytes == 0, "bytes held after the end")
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
    outcome.lastEventID = parser.lastEventID
    return outcome
}

/// The standard's event stream interpretation, read plainly: the whole input decoded as UTF-8
/// (one leading BOM dropped), split into lines, each processed as the standard lists.
func reference(_ bytes: UnsafeRawBufferPointer) -> Outcome {
    var body = Array(bytes)
    if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
    let scalars = Array(String(decoding: body, as: UTF8.self).unicodeScalars)
    var lines: [[Unicode.Scalar]] = []
    var current: [Unicode.Scalar] = []
    var index = 0
    while index < scalars.count {
        let scalar = scalars[index]
        index += 1
        if scalar == "\r" || scalar == "\n" {
            lines.append(current)
            current = []
            if scalar == "\r", index < scalars.count, scalars[index] == "\n" { index += 1 }
        } else {
            current.append(scalar)
        }
    }
    // `current` is a last line without its line end: discarded with the rest of what is pending.
    var outcome = Outcome()
    var data = "", type = "", idBuffer = ""
    for line in lines {
        let text = String(String.UnicodeScalarView(line))
        if line.isEmpty {
            outcome.lastEventID = idBuffer
            if !data.isEmpty {
                data.removeLast()
                outcome.outputs.append(.event(ServerSentEvent(type: type.isEmpty ? "message" : type, data: data, id: idBuffer)))
            }
            data = ""
            type = ""
            continue
        }
        if line[0] == ":" { continue }
        var field = text, value = ""
        if let colon = line.firstIndex(of: ":") {
            field = String(String.UnicodeScalarView(line[..<colon]))
            var rest = line[(colon + 1)...]
            if rest.first == " " { rest = rest.dropFirst() }
            value = String(String.UnicodeScalarView(rest))
        }
        switch field {
        case "event": type = value
        case "data": data += value + "\n"
        case "id": if !value.unicodeScalars.contains("\0") { idBuffer = value }
        case "retry":
            if !value.isEmpty, value.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
                outcome.outputs.append(.retry(milliseconds: Int(value) ?? .max))
            }
        default: break
        }
    }
    return outcome
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let seed = seed(of: bytes)
    // The small limit is drawn from the input too, so that the mutator can move it.
    for limit in [1 << 20, Int(seed % 64)] {
        let whole = drive(bytes, limit: limit) { Int.max }
        if size <= 4096 {
            let single = drive(bytes, limit: limit) { 1 }
            check(single == whole, "byte by byte differs from whole: \(single) vs \(whole)")
        }
        var random = SplitMix(state: seed)
        let split = drive(bytes, limit: limit) { Int(random.next() % 17) + 1 }
        check(split == whole, "random splits differ from whole: \(split) vs \(whole)")
        if limit == 1 << 20, size < limit {
            let expected = reference(bytes)
            check(whole == expected, "differs from the reference: \(whole) vs \(expected)")
        }
    }
    return 0
}
