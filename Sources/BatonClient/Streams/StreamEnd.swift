/// How a streamed call ended: what a stream's promise fulfils with, for the chain to go on from.
public struct StreamEnd: Sendable, Hashable {
    /// Elements handed on.
    public var elements: Int
    /// Elements passed over because they did not decode (see
    /// ``StreamOptions/skipsUndecodableElements``).
    public var skipped: Int
    /// Times the stream was sent again after it dropped (see ``StreamOptions/reconnects``).
    public var reconnections: Int
    /// The last server-sent event ID received, `""` when none; empty for JSON lines. For a stream
    /// its handler stopped, the ID of the last event handed on (or passed over), so that a new
    /// stream sent with it as `Last-Event-ID` skips none.
    public var lastEventID: String
    /// Whether the handler stopped the stream (``StreamControl/stop()``) before the server ended it.
    public var wasStopped = false
}
