/// How a final response's body is delimited (RFC 9112 §6.3), and whether the connection can
/// carry another request after it (RFC 9112 §9.3).
package enum BodyFraming: Equatable, Sendable {
    /// No body: a response to HEAD, a 204 or a 304, whatever its fields declare.
    case none
    /// Exactly this many bytes (Content-Length).
    case length(Int64)
    /// The chunked coding (Transfer-Encoding: chunked).
    case chunked
    /// Everything until the server closes the connection.
    case untilClose

    /// The framing of `head`, the final response to a request with the method `requestMethod`.
    /// Refuses any Transfer-Encoding but `chunked` alone, Transfer-Encoding beside
    /// Content-Length or in an HTTP/1.0 response, and Content-Length values that are not one
    /// decimal number (a list of equal values is that number).
    package static func of(_ head: ResponseHead, requestMethod: String) throws(WireError) -> BodyFraming {
        if forbidsBody(method: requestMethod, status: head.status) { return .none }
        let codings = head.values(for: "Transfer-Encoding")
        let lengths = head.values(for: "Content-Length")
        if !codings.isEmpty {
            guard lengths.isEmpty else { throw .contentLengthWithTransferEncoding }
            guard head.version.minor >= 1 else { throw .transferEncodingInHTTP10 }
            // Empty list elements are allowed (RFC 9110 §5.6.1); what is left must be one `chunked`.
            let value = codings.joined(separator: ", ")
            let named = WireText.listElements(value).filter { !$0.isEmpty }
            guard named.count == 1, WireText.equalIgnoringCase(named[0], "chunked") else {
                throw .unsupportedTransferCoding(value)
            }
            return .chunked
        }
        if lengths.isEmpty { return .untilClose }
        var length: Int64?
        for element in lengths.flatMap(WireText.listElements) {
            let value = try parseLength(element)
            if let length, length != value { throw .conflictingContentLengths(length, value) }
            length = value
        }
        return .length(length ?? 0)
    }

    /// Whether a response with `status` to a request with the method `method` has no body,
    /// whatever its fields declare (RFC 9112 §6.3, rules 1 and 2): any response to `HEAD`, an
    /// interim `1xx`, a `204 No Content`, a `304 Not Modified`, and a `2xx` to `CONNECT` (the
    /// tunnel begins right after its head). Method tokens are case-sensitive, so only `HEAD` and
    /// `CONNECT` themselves count.
    ///
    /// The one statement of the rule: the parser frames a response by it, and the transport reads
    /// no declared length from such a response by it, so the two never disagree on a body.
    package static func forbidsBody(method: String, status: Int) -> Bool {
        method == "HEAD" || status < 200 || status == 204 || status == 304 || (method == "CONNECT" && status < 300)
    }

    /// One Content-Length value: 1*DIGIT, at most `Int64.max`.
    package static func parseLength(_ text: Substring) throws(WireError) -> Int64 {
        guard !text.isEmpty, text.utf8.allSatisfy(WireText.isDigit) else { throw .invalidContentLength(text) }
        var value: Int64 = 0
        for digit in text.utf8 {
            let (times10, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (sum, carried) = times10.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            guard !overflowed, !carried else { throw .contentLengthTooLarge(text) }
            value = sum
        }
        return value
    }

    /// Whether the connection can carry another request once the response is complete: HTTP/1.1
    /// (or a later 1.x) unless `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`,
    /// never after a body that ended with the connection.
    package static func keepsConnection(_ head: ResponseHead, framing: BodyFraming) -> Bool {
        if framing == .untilClose { return false }
        let options = head.values(for: "Connection").flatMap(WireText.listElements)
        if options.contains(where: { WireText.equalIgnoringCase($0, "close") }) { return false }
        if head.version.minor >= 1 { return true }
        return options.contains { WireText.equalIgnoringCase($0, "keep-alive") }
    }
}
