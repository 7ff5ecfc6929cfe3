// A libFuzzer target for DemoServer's HTTP/1.1 request parser (Sources/DemoServer/HTTP). Each input
// is what one client sent on one connection. It is parsed with a large and a small body limit,
// whole, one byte at a time and in splits drawn from the input. The parser must never trap, every
// split must give the same requests, bodies, error and final state, and the events must keep their
// promises (see `drive`). One input in 16 that parses cleanly and ends between requests is then
// sent over and over, pipelined, past 64 KiB, so that the parser compacts its buffer mid-request:
// the same requests must come out, repeated. The conditional-request parsers (`Range`, `If-Range`,
// `If-None-Match`, HTTP-dates) and the `Idempotency-Key` parser then read each parsed request's
// fields, and the input itself as one field value: they must not trap, and keep their promises
// (see `checkConditions`). Built and run by `.ci/fuzz`.

/// What one parse of an input gave, whatever the split.
struct Outcome: Equatable {
    /// Each request's head, described, with its body so far.
    var requests: [String] = []
    var bodies: [[UInt8]] = []
    /// How many requests came to `.end`.
    var ended = 0
    var error: HTTPParseError?
    var betweenRequests = false
    var readingHead = false
}

/// Everything the parser decided about a head, as text (its fields are tuples, not `Equatable`).
func describe(_ head: HTTPRequestHead) -> String {
    let fields = head.headers.fields.map { "\($0.name): \($0.value)" }
    return "\(head.method) \(head.target) path=\(head.path) query=\(head.query) \(head.version) \(fields) "
        + "\(head.framing) continue=\(head.expectsContinue) keepAlive=\(head.keepAlive)"
}

/// The promises a head keeps: a known method, a path or `*`, HTTP/1.x, one Host in 1.1, chunked
/// only in 1.1, a declared length within the limit.
func checkHead(_ head: HTTPRequestHead, maxBody: Int) {
    check(HTTPRequestLine.knownMethods.contains(head.method), "unknown method \(head.method)")
    check(head.path.hasPrefix("/") || (head.path == "*" && head.method == "OPTIONS"), "path \(head.path)")
    check(head.version.major == 1 && (head.version.minor == 0 || head.version.minor == 1), "version \(head.version)")
    if head.version == .http1_1 { check(head.headers.values("Host").count == 1, "a 1.1 request without one Host") }
    switch head.framing {
    case .none: break
    case .contentLength(let length): check(length > 0 && length <= maxBody, "Content-Length \(length)")
    case .chunked: check(head.version == .http1_1, "chunked in HTTP/1.0")
    }
    check(!head.expectsContinue || head.version == .http1_1, "100-continue in HTTP/1.0")
}

/// The statuses `HTTPParseError` documents.
let errorStatuses: Set<Int> = [400, 413, 417, 431, 505]

/// A fixed "now" for two-digit years, so that a finding reproduces: 2026-01-01.
let fuzzNow: Int64 = 1_767_225_600

/// Runs the parsers of the fields a resource route reads on `values` as the lines of one field,
/// and checks what they promise: a range resolves inside the representation, a tag or a date
/// written back reads back the same, a key is 1 to 255 visible ASCII characters.
func checkConditions(_ values: [String]) {
    if let range = ByteRange.parse(values) {
        for length in [0, 1, 7, 1000, Int.max] {
            switch range.resolve(length: length) {
            case .partial(let bytes): check(bytes.lowerBound >= 0 && bytes.upperBound < length, "\(range) on \(length) bytes: \(bytes)")
            case .whole: check(length == 0, "\(range) whole on \(length) bytes")
            case .unsatisfiable: break
            }
        }
    }
    if let noneMatch = IfNoneMatch.parse(values), case .tags(let tags) = noneMatch {
        check(!tags.isEmpty, "If-None-Match with no tag")
        for tag in tags { check(EntityTag.parse(tag.description) == tag, "tag \(tag) does not read back") }
        check(noneMatch.matches(tags[0]), "a list does not match its own first tag")
    }
    switch IfRange.parse(values, now: fuzzNow) {
    case .entityTag(let tag): check(EntityTag.parse(tag.description) == tag, "If-Range tag \(tag) does not read back")
    case .date(let seconds):
        check(HTTPDate.parse(HTTPDate.format(seconds), now: fuzzNow) == seconds, "date \(seconds) does not read back")
    case nil: break
    }
    if case .key(let key) = IdempotencyKey.parse(values) {
        check((1...IdempotencyKey.maxLength).contains(key.utf8.count) && key.utf8.allSatisfy { (0x21...0x7e).contains($0) },
              "key \(key)")
        var quoted = "\""
        for character in key {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        quoted.append("\"")
        check(IdempotencyKey.parse([quoted]) == .key(key), "key \(key) quoted as \(quoted) does not read back")
    }
}

/// ``checkConditions`` on every field a conditional or idempotent request may carry.
func checkConditions(_ head: HTTPRequestHead) {
    for name in ["Range", "If-Range", "If-None-Match", "If-Modified-Since", "Idempotency-Key"] {
        let values = head.headers.values(name)
        checkConditions(values)
        for value in values { checkConditions([value]) }
    }
}

/// Feeds `bytes` in pieces of the sizes `nextCut` gives, taking every event after each piece,
/// until the bytes run out or the parser fails (an error is final for the connection). Each head
/// is also handed to `inspect`.
func drive(
    _ bytes: UnsafeRawBufferPointer, maxBody: Int, inspect: (HTTPRequestHead) -> Void = { _ in }, nextCut: () -> Int
) -> Outcome {
    var parser = HTTPRequestParser(maxBodyBytes: maxBody)
    var outcome = Outcome()
    var open: HTTPRequestHead? // The request whose `.end` has not come yet.
    var index = 0
    while index < bytes.count {
        let count = min(max(1, nextCut()), bytes.count - index)
        parser.append(UnsafeRawBufferPointer(rebasing: bytes[index..<(index + count)]))
        index += count
        do throws(HTTPParseError) {
            while let event = try parser.next() {
                switch event {
                case .head(let head):
                    check(open == nil, "a head before the previous request's end")
                    checkHead(head, maxBody: maxBody)
                    inspect(head)
                    open = head
                    outcome.requests.append(describe(head))
                    outcome.bodies.append([])
                case .body(let piece):
                    guard let head = open else { fatalError("a body piece outside a request") }
                    check(!piece.isEmpty, "an empty body piece")
                    outcome.bodies[outcome.bodies.count - 1].append(contentsOf: piece)
                    let received = outcome.bodies[outcome.bodies.count - 1].count
                    switch head.framing {
                    case .none: fatalError("a body piece for a request without a body")
                    case .contentLength(let length): check(received <= length, "\(received) body bytes of \(length)")
                    case .chunked: check(received <= maxBody, "\(received) chunked body bytes over \(maxBody)")
                    }
                case .end:
                    guard let head = open else { fatalError("an end outside a request") }
                    let received = outcome.bodies[outcome.bodies.count - 1].count
                    switch head.framing {
                    case .none: check(received == 0, "a body without framing")
                    case .contentLength(let length): check(received == length, "ended at \(received) of \(length) bytes")
                    case .chunked: break
                    }
                    open = nil
                    outcome.ended += 1
                }
            }
        } catch {
            check(errorStatuses.contains(error.status), "an error with the status \(error.status)")
            check(!error.message.isEmpty, "an error without a message")
            outcome.error = error
            break
        }
        // All the events these bytes complete are out: the parser reads a head exactly when no
        // request is open, and is idle only while reading a head.
        check(parser.isReadingHead == (open == nil), "reading a head: \(parser.isReadingHead), a request open: \(open != nil)")
        check(!parser.isBetweenRequests || parser.isReadingHead, "between requests outside a head")
    }
    check(outcome.ended == outcome.requests.count - (open == nil ? 0 : 1), "ends and heads do not pair")
    outcome.betweenRequests = parser.isBetweenRequests
    outcome.readingHead = parser.isReadingHead
    return outcome
}

/// A stream of past 64 KiB, so the parser's buffer is compacted (at 64 KiB consumed) mid-stream.
let repeatedStreamBytes = 64 * 1024 + 4096

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let seed = seed(of: bytes)
    checkConditions([String(decoding: bytes, as: UTF8.self)])
    for maxBody in [1 << 20, 16] {
        let whole = drive(bytes, maxBody: maxBody, inspect: maxBody == 1 << 20 ? checkConditions : { _ in }) { Int.max }
        let single = drive(bytes, maxBody: maxBody) { 1 }
        var random = SplitMix(state: seed)
        let split = drive(bytes, maxBody: maxBody) { Int(random.next() % 9) + 1 }
        check(single == whole, "byte by byte differs from whole: \(single) vs \(whole)")
        check(split == whole, "random splits differ from whole: \(split) vs \(whole)")

        // The same clean exchange pipelined over and over: the same requests, repeated. This costs
        // a thousand requests or so, so only one input in 16 (by its hash) pays it.
        guard maxBody == 1 << 20, seed % 16 == 0, whole.error == nil, whole.betweenRequests, !whole.requests.isEmpty
        else { continue }
        let times = repeatedStreamBytes / size + 1
        var stream: [UInt8] = []
        stream.reserveCapacity(size * times)
        for _ in 0..<times { stream.append(contentsOf: bytes) }
        let repeated = stream.withUnsafeBytes { stream in
            drive(stream, maxBody: maxBody) { Int(random.next() % UInt64(2 * size)) + 1 }
        }
        var expected = Outcome(ended: whole.ended * times, betweenRequests: true, readingHead: true)
        for _ in 0..<times {
            expected.requests += whole.requests
            expected.bodies += whole.bodies
        }
        check(repeated == expected, "\(times) times the input differs from the input \(times) times")
    }
    return 0
}
