/// The failure a request asks for with `X-Demo-Fault`, such as `status=503;retry-after=1;times=2`.
///
/// Parsing is strict about values and lenient about keys: an unknown key is ignored (so newer
/// clients can talk to older servers), a known key with a bad value makes the request fail with 400.
struct Fault: Sendable, Equatable {
    static let headerName = "X-Demo-Fault"
    /// A delay longer than this is surely a typo, and would hold a connection for no reason.
    static let maxDelay = Duration.seconds(300)
    /// The largest `body-bytes`: the server builds the body in memory.
    static let maxBodyBytes = 256 << 20
    /// The largest `barrier`: far more requests than a test holds at once.
    static let maxBarrier = 100_000

    var status: Int?
    var retryAfter: Int?
    var delay: Duration?
    var drop = false
    var dropAfter: Int?
    var garbageBody = false
    var contentType: String?
    /// Answer `200` with a JSON body of exactly this many bytes instead of handling the request.
    var bodyBytes: Int?
    /// Send the response's body gzip-compressed, with `Content-Encoding: gzip`.
    var gzip = false
    /// An authentication scheme (`Basic`, `Digest`, ...) to challenge with: the response carries
    /// `WWW-Authenticate: <scheme> realm="demo"`.
    var challenge: String?
    /// Apply to the first `times` requests carrying the same header value only.
    var times: Int?
    /// Send the first N bytes of the response (status line included), then nothing more until the
    /// client hangs up or the server stops (at most ``maxDelay``), then close: a transfer that
    /// stalls midway. Takes the place of `drop-after` when both are given.
    var stallAfter: Int?
    /// Hold the request until this many requests carrying the same header value have arrived,
    /// then let them all go on (the next ones form the next group): a barrier, which only a
    /// server handling that many requests at once can pass. A request held longer than
    /// ``maxDelay``, or whose client hangs up, is dropped.
    var barrier: Int?
    /// On a stream route: wait this long between two events or lines.
    var drip: Duration?
    /// On a stream route: after this many events or lines, close the connection without ending
    /// the body.
    var dropAfterEvents: Int?
    /// On a stream route: after this many events or lines, send nothing more until the client
    /// hangs up or the server stops (at most ``maxDelay``), then close without ending the body.
    /// Takes the place of `drop-after-events` when both are given.
    var stallAfterEvents: Int?

    /// Why a header value was refused; the message goes into the 400 response.
    struct Invalid: Error, Equatable {
        var message: String
    }

    static func parse(_ header: String) throws(Invalid) -> Fault {
        var fault = Fault()
        for item in header.split(separator: ";") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = pair[0].trimmingOWS().lowercased()
            let value = pair.count > 1 ? pair[1].trimmingOWS() : nil
            func bad() -> Invalid { Invalid(message: "X-Demo-Fault has a bad value for \(key): \(value ?? "(none)")") }
            func integer(in range: ClosedRange<Int>) throws(Invalid) -> Int {
                guard let value, value.utf8.allSatisfy({ $0.decimalDigitValue != nil }),
                      let number = Int(value), range.contains(number)
                else { throw bad() }
                return number
            }
            switch key {
            case "":
                continue
            case "status":
                fault.status = try integer(in: 200...599)
            case "retry-after":
                fault.retryAfter = try integer(in: 0...86_400)
            case "delay":
                guard let value, let delay = parseDelay(value), delay <= maxDelay else { throw bad() }
                fault.delay = delay
            case "drop":
                guard value == nil else { throw bad() }
                fault.drop = true
            case "drop-after":
                fault.dropAfter = try integer(in: 0...Int(Int32.max))
            case "body":
                guard value?.lowercased() == "garbage" else { throw bad() }
                fault.garbageBody = true
            case "content-type":
                guard let value, !value.isEmpty else { throw bad() }
                fault.contentType = value
            case "body-bytes":
                fault.bodyBytes = try integer(in: 0...maxBodyBytes)
            case "gzip":
                guard value == nil else { throw bad() }
                fault.gzip = true
            case "challenge":
                guard let value, !value.isEmpty, value.utf8.allSatisfy({ $0.isTokenCharacter }) else { throw bad() }
                fault.challenge = value
            case "times":
                fault.times = try integer(in: 0...Int(Int32.max))
            case "stall-after":
                fault.stallAfter = try integer(in: 0...Int(Int32.max))
            case "barrier":
                fault.barrier = try integer(in: 1...maxBarrier)
            case "drip":
                guard let value, let drip = parseDelay(value), drip <= maxDelay else { throw bad() }
                fault.drip = drip
            case "drop-after-events":
                fault.dropAfterEvents = try integer(in: 0...Int(Int32.max))
            case "stall-after-events":
                fault.stallAfterEvents = try integer(in: 0...Int(Int32.max))
            default:
                continue
            }
        }
        return fault
    }

    /// `250ms` or `5s`, whole numbers only.
    private static func parseDelay(_ text: String) -> Duration? {
        let lowered = text.lowercased()
        let (digits, unit): (Substring, Duration) = lowered.hasSuffix("ms")
            ? (lowered.dropLast(2), .milliseconds(1))
            : lowered.hasSuffix("s") ? (lowered.dropLast(1), .seconds(1)) : ("", .zero)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ $0.decimalDigitValue != nil }),
              digits.count <= 9, let count = Int(digits)
        else { return nil }
        return unit * count
    }
}
