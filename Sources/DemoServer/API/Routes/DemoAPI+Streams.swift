/// The streamed routes: a review's photo processing as server-sent events, the orders as JSON
/// lines, and `/_demo/events` and `/_demo/lines` of any length and element size, for benchmarks
/// and for testing a client's stream reading. ``StreamElements`` writes their elements.
extension DemoAPI {
    /// The largest `count` of `/_demo/events` and `/_demo/lines`.
    static let maxStreamCount = 10_000_000
    /// The largest `size` of `/_demo/events` and `/_demo/lines`: their elements are made in memory.
    static let maxStreamElementSize = 1 << 20
    /// The largest `huge`: as large as `body-bytes` may make a whole body, far past any client's
    /// element limit, and made in memory as that body is.
    static let maxHugeElementSize = Fault.maxBodyBytes
    /// `count` and `size` when a request gives none: a short stream of small elements.
    static let defaultStreamCount = 10
    static let defaultStreamElementSize = 64
    /// The `retry:` an event stream starts with unless the request's `retry=MS` says otherwise:
    /// one second, so a test of reconnection does not wait long.
    static let defaultRetryMilliseconds = 1000
    /// The largest `retry=MS`: an hour.
    static let maxRetryMilliseconds = 3_600_000

    static let eventStreamHeaders = [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")]
    static let jsonLinesHeaders = [("Content-Type", "application/x-ndjson"), ("Cache-Control", "no-store")]

    /// `GET /reviews/:review_id/photos/states`: `retry:`, then each photo's `state` events and a
    /// `done` event (``StreamElements/photoStateEvents(photoIDs:)``), resumed after the event that
    /// `Last-Event-ID` names.
    func photoStates(reviewID: Int, _ head: HTTPRequestHead) throws(Refusal) -> StreamedResponse {
        let query = try queryPairs(head)
        let retry = try integer("retry", in: query, 0...Self.maxRetryMilliseconds) ?? Self.defaultRetryMilliseconds
        let lastEventID = try lastEventID(head)
        let photoIDs = state.withLock { state -> [Int]? in
            guard state.data.reviews[reviewID] != nil else { return nil }
            return state.data.photos.values.filter { $0.reviewID == reviewID }.map(\.id).sorted()
        }
        guard let photoIDs else { throw Refusal(404, "not_found") }
        // Ids are consecutive from 1, so the events after N are those from index N on.
        let events = StreamElements.photoStateEvents(photoIDs: photoIDs)
        var remaining = events.dropFirst(min(lastEventID, events.count)).makeIterator()
        return StreamedResponse(headers: Self.eventStreamHeaders, unit: .events,
                                prologue: StreamElements.retry(milliseconds: retry)) { remaining.next() }
    }

    /// `GET /orders.ndjson`: every order, each the JSON of `GET /orders/:id`, one per line.
    func orderLines() -> StreamedResponse {
        var orders = state.withLock { $0.data.orders }.makeIterator()
        return StreamedResponse(headers: Self.jsonLinesHeaders, unit: .lines) {
            orders.next().map { StreamElements.line($0.json.serialized()) }
        }
    }

    /// `GET /_demo/events` and `GET /_demo/lines` with `count=N` elements of `size=S` bytes
    /// (``StreamElements/demoElement(index:size:event:)``, numbered from 1), the second of `huge=H`
    /// bytes instead when given: an element past a client's size limit. Events resume after the
    /// one `Last-Event-ID` names.
    func demoStream(_ head: HTTPRequestHead, unit: StreamedResponse.Unit) throws(Refusal) -> StreamedResponse {
        let query = try queryPairs(head)
        let count = try integer("count", in: query, 0...Self.maxStreamCount) ?? Self.defaultStreamCount
        let size = try integer("size", in: query, 0...Self.maxStreamElementSize) ?? Self.defaultStreamElementSize
        let huge = try integer("huge", in: query, 0...Self.maxHugeElementSize)
        if huge != nil, count < 2 { throw Refusal(400, "huge sizes the second element: count must be 2 or more") }
        let isEvents = unit == .events
        // Events resume after the one `Last-Event-ID` names, as a well-behaved server's do.
        var index = isEvents ? min(try lastEventID(head), count) : 0
        return StreamedResponse(headers: isEvents ? Self.eventStreamHeaders : Self.jsonLinesHeaders, unit: unit) {
            guard index < count else { return nil }
            index += 1
            return StreamElements.demoElement(index: index, size: index == 2 ? huge ?? size : size, event: isEvents)
        }
    }

    /// The faults that change a stream: its pace (`drip`) and its end (`drop-after-events`,
    /// `stall-after-events`). A `content-type` fault answers a whole body of that type instead,
    /// not streamed, as a proxy's error page would be; the faults that cut a whole response by its
    /// bytes (`drop-after`, `stall-after`) and `gzip` leave a stream alone.
    func finish(_ stream: StreamedResponse, fault: Fault?) -> HTTPReply {
        guard let fault else { return .stream(stream) }
        if let contentType = fault.contentType {
            return finish(ServerResponse(status: 200, headers: [("Content-Type", contentType)], body: Self.garbageBody), fault: fault)
        }
        var stream = stream
        stream.drip = fault.drip
        if let count = fault.stallAfterEvents {
            stream.interruption = StreamedResponse.Interruption(afterElements: count, hold: Fault.maxDelay)
        } else if let count = fault.dropAfterEvents {
            stream.interruption = StreamedResponse.Interruption(afterElements: count, hold: nil)
        }
        return .stream(stream)
    }

    private func queryPairs(_ head: HTTPRequestHead) throws(Refusal) -> [(name: String, value: String)] {
        guard let pairs = FormURLEncoded.decode(head.query) else { throw Refusal(400, "query is not valid form data") }
        return pairs
    }

    /// The query parameter `name` as an integer in `range`, nil when absent; 400 otherwise.
    private func integer(_ name: String, in pairs: [(name: String, value: String)], _ range: ClosedRange<Int>) throws(Refusal) -> Int? {
        guard let text = FormURLEncoded.value(name, in: pairs) else { return nil }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0.decimalDigitValue != nil }), let value = Int(text), range.contains(value) else {
            throw Refusal(400, "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The id of the last event the client saw (`Last-Event-ID`), 0 when it sent none or an empty
    /// one (which an event stream client sends after an empty `id:`); 400 for one this server
    /// never sends.
    private func lastEventID(_ head: HTTPRequestHead) throws(Refusal) -> Int {
        guard let text = head.headers["Last-Event-ID"]?.trimmingOWS(), !text.isEmpty else { return 0 }
        guard text.utf8.allSatisfy({ $0.decimalDigitValue != nil }), let id = Int(text) else {
            throw Refusal(400, "Last-Event-ID must be the id of an event of this stream, a non-negative integer")
        }
        return id
    }
}
