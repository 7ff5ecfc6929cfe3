// A libFuzzer target for Baton's HTTP/1.1 response parser (Sources/BatonWire/Parser). Each input is
// one server's bytes, parsed for GET, HEAD and CONNECT (a proxy's answer: a 2xx has no body), with the default limits and with small ones,
// whole, one byte at a time and in splits drawn from the input; then the connection's close.
// The parser must never trap, every split must give the same events, bytes used and error, and
// the events must keep their promises (see `check`). Every field value of a head is also read as
// a download reads `Content-Range` and `Repr-Digest` (Sources/BatonClient/Responses), which must keep
// theirs. Build and run: see README beside this file.

/// What one parse of an input gave, whatever the split.
import BatonWire
struct Outcome: Equatable {
    var events: [String] = []
    var body: [UInt8] = []
    var consumed = 0
    var error: WireError?
    var otherError = false
    var complete = false
    var keepsConnection = false
    var declaredLength: Int64?
}

/// Parses `bytes` in pieces of the sizes `nextCut` gives, then ends it as a close would.
func drive(_ bytes: UnsafeRawBufferPointer, method: String, limits: ResponseLimits,
           nextCut: () -> Int) -> Outcome {
    var parser = ResponseParser(requestMethod: method, limits: limits)
    var outcome = Outcome()
    var sawHead = false
    var sawEnd = false
    var status = 0
    func record(_ event: ResponseEvent) {
        check(!sawEnd, "an event after .end")
        switch event {
        case .head(let head):
            check(!sawHead, "two heads")
            check((200...599).contains(head.status), "a head with the status \(head.status)")
            sawHead = true
            status = head.status
            outcome.events.append("head \(head.version) \(head.status) \(head.reason.debugDescription) \(head.fields.map { "\($0.name): \($0.value)" })")
            checkDownloadFields(head)
        case .body(let piece):
            check(sawHead, "a body before the head")
            check(!piece.isEmpty, "an empty body piece")
            check(method != "HEAD", "a body for HEAD")
            check(method != "CONNECT" || status >= 300, "a body for a \(status) to CONNECT: the tunnel's bytes")
            outcome.body.append(contentsOf: piece)
        case .end(let trailers):
            check(sawHead, "an end before the head")
            sawEnd = true
            outcome.events.append("end \(trailers.map { "\($0.name): \($0.value)" })")
        }
    }
    do {
        var index = 0
        while index < bytes.count, !parser.isComplete {
            let count = min(max(1, nextCut()), bytes.count - index)
            let piece = UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)])
            let used = try parser.parse(piece, record)
            check(used >= 0 && used <= count, "used \(used) of \(count) bytes")
            check(used == count || parser.isComplete, "bytes left unused before the end")
            outcome.consumed += used
            index += count
            if let declared = parser.declaredLength {
                check(Int64(outcome.body.count) <= declared, "\(outcome.body.count) body bytes of \(declared) declared")
            }
        }
        try parser.parseEnd(record)
    } catch let error as WireError {
        outcome.error = error
        outcome.consumed = 0 // How far the pieces before the error went depends on the split.
        check(!error.description.isEmpty, "an error without a sentence")
    } catch {
        outcome.otherError = true
    }
    check(!outcome.otherError, "an error that is not a WireError")
    outcome.complete = parser.isComplete
    outcome.keepsConnection = parser.keepsConnection
    outcome.declaredLength = parser.declaredLength
    check(outcome.complete == sawEnd, "complete without .end, or .end without completion")
    check(outcome.complete == (outcome.error == nil), "neither complete nor failed")
    check(!outcome.keepsConnection || outcome.complete, "keeps the connection before its end")
    if outcome.complete, let declared = outcome.declaredLength {
        check(Int64(outcome.body.count) == declared, "\(outcome.body.count) body bytes of \(declared) declared")
    }
    // A failed parser says the same again.
    if let error = outcome.error {
        do { try parser.parseEnd { _ in } } catch let again as WireError { check(again == error, "a second error") } catch {}
    }
    return outcome
}

/// Reads each field of `head` as `Content-Range`, and the head as naming a digest: what parses
/// must be sound (a range inside its length, a digest of 32 bytes).
func checkDownloadFields(_ head: ResponseHead) {
    for field in head.fields {
        guard let range = ContentRange(field.value) else { continue }
        check(range.range != nil || range.completeLength != nil, "an unsatisfied range without a length")
        if let bytes = range.range {
            check(bytes.lowerBound >= 0 && bytes.lowerBound <= bytes.upperBound, "a range \(bytes)")
            if let length = range.completeLength { check(bytes.upperBound < length, "a range \(bytes) past its length \(length)") }
        }
    }
    for status in [200, 206] {
        let digest = RepresentationDigest.sha256(in: { name in head.fields.first { WireText.equalIgnoringCase($0.name, name) }?.value }, status: status)
        check(digest == nil || digest!.count == 32, "a digest of \(digest?.count ?? 0) bytes")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let seed = seed(of: bytes)
    let small = ResponseLimits(maximumHeadBytes: 200, maximumLineBytes: 40, maximumFieldCount: 4)
    for method in ["GET", "HEAD", "CONNECT"] {
        for limits in [ResponseLimits(), small] {
            let whole = drive(bytes, method: method, limits: limits) { Int.max }
            let single = drive(bytes, method: method, limits: limits) { 1 }
            var random = SplitMix(state: seed)
            let split = drive(bytes, method: method, limits: limits) { Int(random.next() % 9) + 1 }
            check(single == whole, "byte by byte differs from whole: \(single) vs \(whole)")
            check(split == whole, "random splits differ from whole: \(split) vs \(whole)")
        }
    }
    return 0
}
