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
    /// Send the response; with `cut`, only its first bytes (see ``Cut``).
    case respond(ServerResponse, cut: Cut? = nil)
    /// Close the connection without answering.
    case drop
    /// Send the response's body in pieces as its producer makes them.
    case stream(StreamedResponse)
}

/// A response sent only in part: its first `after` bytes (status line included), then either the
/// connection is closed at once (`hold` nil) or it stays open, sending nothing more, until the
/// client hangs up, the server stops or `hold` has passed, and is closed then.
struct Cut: Equatable {
    var after: Int
    var hold: Duration?
}

/// The application behind the HTTP layer; called on connection threads, so it must be thread-safe.
protocol HTTPHandler: Sendable {
    func reply(to exchange: HTTPExchange) -> HTTPReply
    /// Called once for every request the HTTP layer refused (malformed, too large, timed out).
    func recordMalformedRequest()
    /// Called once for every connection accepted.
    func recordConnection()
    /// Called once for every TLS handshake completed, with the host name the client sent (SNI).
    func recordHandshake(serverName: String?)
    /// Called once for every streamed response whose body begins (not for HEAD requests).
    func recordStreamStarted()
    /// Called as a stream's elements go out, with how many went in one write.
    func recordStreamElementsSent(_ count: Int)
    /// Called as bytes go to a client, once per write with how many: before the write, so that a
    /// client that has read them finds them counted, and again after a write that failed, with
    /// minus the bytes that did not go.
    func recordBytesSent(_ count: Int)
    /// Whether the bytes of the response to `head` are counted with ``recordBytesSent(_:)``: not
    /// those of a response that reports the counts, so that reading them does not change them.
    func countsBytesSent(answering head: HTTPRequestHead) -> Bool
}
