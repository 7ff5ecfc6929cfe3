/// One event of a `text/event-stream` response (server-sent events, as the HTML standard
/// defines them): what a server sent between two blank lines, once dispatched.
///
/// An event is made only for a block that had at least one `data` line; blocks of comments, or
/// of `id`, `event` or `retry` lines alone, dispatch nothing. Lines are decoded as UTF-8, an
/// invalid sequence becoming U+FFFD, so `type`, `data` and `id` are always valid text.
///
/// ```
/// event: price        ->  ServerSentEvent(type: "price", data: "YHOO\n+2", id: "42")
/// id: 42
/// data: YHOO
/// data: +2
///
/// ```
public struct ServerSentEvent: Sendable, Hashable, Codable {
    /// The event's type: the value of its last `event` line, or `"message"` when it had none
    /// (or an empty one), as a browser's `EventSource` would name it.
    public var type: String

    /// The values of the event's `data` lines, joined by line feeds (`"\n"`), without a final one.
    /// One space after `data:` is not part of the value; a `data` line with no value adds an
    /// empty line, so `data` can be empty or hold only line feeds.
    public var data: String

    /// The last event ID when the event was dispatched: the value of the latest `id` line of the
    /// stream, in this event or an earlier one, or `""` when there was none or an `id` line
    /// without a value cleared it. A reconnecting client sends it back as `Last-Event-ID`.
    public var id: String

    /// An event with these fields; the defaults are those of an event that had only `data` lines
    /// in a stream without `id` lines.
    public init(type: String = "message", data: String, id: String = "") {
        self.type = type
        self.data = data
        self.id = id
    }
}
