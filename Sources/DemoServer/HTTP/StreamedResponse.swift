/// A response whose body goes out in pieces over time, for as long as its producer has more: an
/// event stream or JSON lines.
///
/// The connection sends it chunked, one chunk per element, so that the connection can serve
/// another request after a stream that finished; to an HTTP/1.0 request, whose client cannot read
/// chunks, it sends the elements bare and closes the connection to end the body. Elements are
/// asked for one at a time, only when the connection is about to send them, so a stream of
/// millions never sits in memory.
struct StreamedResponse {
    /// What an element is called in the log line.
    struct Unit: Equatable {
        var one: String
        var many: String

        static let events = Unit(one: "event", many: "events")
        static let lines = Unit(one: "line", many: "lines")

        /// `1 event`, `3 events`.
        func count(_ number: Int) -> String { "\(number) \(number == 1 ? one : many)" }
    }

    /// A stream cut short: after `afterElements` elements the connection is closed at once
    /// (`hold` nil), or stays open sending nothing more until the client hangs up, the server
    /// stops or `hold` has passed, and is closed then. Either way the body never ends properly.
    struct Interruption: Equatable {
        var afterElements: Int
        var hold: Duration?
    }

    var status: Int
    var headers: [(name: String, value: String)]
    var unit: Unit
    /// Sent before the first element and not counted as one, such as an event stream's `retry:`.
    var prologue: [UInt8] = []
    /// The next element's bytes, nil when there are no more. Called on the connection's thread.
    var next: () -> [UInt8]?
    /// How long to wait between two elements, if at all.
    var drip: Duration?
    var interruption: Interruption?

    init(status: Int = 200, headers: [(name: String, value: String)], unit: Unit, prologue: [UInt8] = [],
         next: @escaping () -> [UInt8]?) {
        self.status = status
        self.headers = headers
        self.unit = unit
        self.prologue = prologue
        self.next = next
    }

    /// The status line and header fields, framed as `framing` says.
    func serializedHead(closing: Bool, framing: ServerResponse.Framing) -> [UInt8] {
        ServerResponse(status: status, headers: headers).serializedHead(closing: closing, framing: framing)
    }
}
