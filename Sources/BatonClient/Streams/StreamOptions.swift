/// How a streamed call (``Client/events(_:options:each:)-(_,_,(E.Response)->Void)``, ``Client/lines(_:options:each:)-(_,_,(E.Response)->Void)``)
/// cuts, decodes and keeps up its stream.
public struct StreamOptions: Sendable {
    /// The largest element, in bytes: a server-sent event (its data, type and id) or a JSON
    /// line. One larger fails the stream with ``APIError/Kind/elementTooLarge`` as soon as it
    /// grows past the limit, so memory stays bounded whatever the server sends. Default 1 MiB.
    public var maximumElementSize = 1 << 20
    /// Server-sent events only: whether a stream that drops (the connection lost, cut short) is
    /// sent again, with `Last-Event-ID` naming the last event received, after the server's
    /// `retry` delay (or ``reconnectionDelay``). Each reconnection goes through the client's
    /// adapters, so a refreshed token is sent. A stream the server ends cleanly is not
    /// reconnected. Default `false`.
    public var reconnects = false
    /// The wait before reconnecting until the server sends a `retry` field. Default 3 s, as the
    /// HTML standard suggests.
    public var reconnectionDelay: Duration = .seconds(3)
    /// The most reconnections in a row that bring no new element, before the stream fails with
    /// the last error. Default 5.
    public var maximumReconnections = 5
    /// Server-sent events only: the event type (`event:` field) whose events are decoded and
    /// handed on; events of other types are passed over. `nil` (the default): every event.
    public var eventType: String?
    /// Whether an element that does not decode is passed over (counted in
    /// ``StreamEnd/skipped``) rather than failing the stream with its line or event number.
    /// Default `false`.
    public var skipsUndecodableElements = false

    /// The defaults.
    public init() {}
}
