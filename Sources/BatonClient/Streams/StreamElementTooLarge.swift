/// A streamed body held an element (a server-sent event, a JSON line) larger than the parser's
/// limit: the parser refused to hold more of it, so that a server that never ends an element
/// cannot make Baton's memory grow without end.
///
/// The parser that threw stays failed: feeding or finishing it again throws the same error.
struct StreamElementTooLarge: Error, Sendable, Hashable, CustomStringConvertible {
    /// The limit given to the parser, in bytes.
    var limit: Int

    /// A sentence naming the limit, for logs and error messages.
    var description: String {
        "the stream holds an element larger than the limit of \(limit) bytes"
    }
}
