/// What ``ResponseParser`` found, in order: one `head`, any number of `body` pieces, one `end`.
package enum ResponseEvent {
    /// The final response's head (interim 1xx responses are skipped).
    case head(ResponseHead)
    /// Body bytes, never empty, pointing into the buffer given to `parse`: valid only during the
    /// call that delivers them.
    case body(UnsafeRawBufferPointer)
    /// The response is complete; `trailers` are a chunked body's trailer fields (else empty).
    case end(trailers: [(name: String, value: String)])
}
