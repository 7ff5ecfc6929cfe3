/// A request as the connection hands it to the handler, with what the connection can do for it.
struct HTTPExchange {
    var head: HTTPRequestHead
    var body: IncomingBody
    /// The client's address, such as `127.0.0.1:54321`.
    var peer: String
    /// Waits for `duration` unless the server stops first; returns false when it stopped.
    var pause: (Duration) -> Bool
}

/// What the connection does with a request once the handler has decided.
enum HTTPReply {
    /// Send the response; with `truncateAfter`, only its first N bytes (status line included), then
    /// close the connection.
    case respond(ServerResponse, truncateAfter: Int? = nil)
    /// Close the connection without answering.
    case drop
}

/// The application behind the HTTP layer; called on connection threads, so it must be thread-safe.
protocol HTTPHandler: Sendable {
    func reply(to exchange: HTTPExchange) -> HTTPReply
    /// Called once for every request the HTTP layer refused (malformed, too large, timed out).
    func recordMalformedRequest()
}
