/// One factory per kind, each writing the sentence that names what was wrong.
extension WireError {
    // MARK: The status line

    package static func invalidStatusLine(_ line: ArraySlice<UInt8>) -> WireError {
        WireError(.invalidStatusLine, "the server's answer starts with \(WireText.quoted(line)), which is not an HTTP/1.x status line")
    }

    package static func statusOutOfRange(_ status: Int) -> WireError {
        WireError(.statusOutOfRange, "the server's answer has the status code \(status), outside 100 to 599")
    }

    package static func invalidReasonPhrase(_ byte: UInt8, line: ArraySlice<UInt8>) -> WireError {
        WireError(.invalidReasonPhrase, "the server's status line \(WireText.quoted(line)) has \(named(byte)) in its reason phrase")
    }

    package static let switchingProtocols = WireError(
        .switchingProtocols, "the server's answer is 101 Switching Protocols, and Baton does not switch protocols")

    // MARK: Lines and field lines

    package static func bareCarriageReturn(in section: Section) -> WireError {
        WireError(.bareCarriageReturn, "\(section.phrase) has a carriage return (CR) not followed by a line feed (LF)")
    }

    package static func lineTooLong(in section: Section, limit: Int) -> WireError {
        WireError(.lineTooLong, "\(section.phrase) has a line longer than the limit of \(limit) bytes (maximumLineBytes)")
    }

    package static func headTooLarge(_ section: Section, limit: Int) -> WireError {
        WireError(.headTooLarge, "\(section.phrase) is larger than the limit of \(limit) bytes (maximumHeadBytes)")
    }

    package static func tooManyFields(in section: Section, limit: Int) -> WireError {
        WireError(.tooManyFields, "\(section.phrase) has more fields than the limit of \(limit) (maximumFieldCount)")
    }

    package static func obsoleteLineFolding(in section: Section, line: ArraySlice<UInt8>) -> WireError {
        WireError(.obsoleteLineFolding,
                  "\(section.phrase) has a line starting with whitespace (obsolete line folding): \(WireText.quoted(line))")
    }

    package static func missingColon(in section: Section, line: ArraySlice<UInt8>) -> WireError {
        WireError(.missingColon, "\(section.phrase) has a field line without a colon: \(WireText.quoted(line))")
    }

    package static func invalidFieldName(in section: Section, name: ArraySlice<UInt8>) -> WireError {
        if name.isEmpty { return WireError(.invalidFieldName, "\(section.phrase) has a field line with an empty name") }
        return WireError(.invalidFieldName, "\(section.phrase) has a field name that is not a token: \(WireText.quoted(name))")
    }

    package static func whitespaceBeforeColon(in section: Section, name: ArraySlice<UInt8>) -> WireError {
        WireError(.whitespaceBeforeColon,
                  "\(section.phrase) has whitespace between the field name \(WireText.quoted(WireText.trimmingWhitespace(name))) and its colon")
    }

    package static func invalidFieldValue(in section: Section, name: String, byte: UInt8) -> WireError {
        WireError(.invalidFieldValue, "\(section.phrase) has \(named(byte)) in the value of the field \(WireText.quoted(name))")
    }

    // MARK: Framing

    package static func unsupportedTransferCoding(_ value: String) -> WireError {
        WireError(.unsupportedTransferCoding,
                  "the server's answer has Transfer-Encoding \(WireText.quoted(value)), and Baton decodes \"chunked\" alone only")
    }

    package static let transferEncodingInHTTP10 = WireError(
        .transferEncodingInHTTP10, "the server's answer is HTTP/1.0 yet has Transfer-Encoding, so its framing cannot be trusted")

    package static let contentLengthWithTransferEncoding = WireError(
        .contentLengthWithTransferEncoding,
        "the server's answer has both Transfer-Encoding and Content-Length, so its length is ambiguous")

    package static func invalidContentLength(_ value: some StringProtocol) -> WireError {
        WireError(.invalidContentLength, "the server's answer has a Content-Length that is not a decimal number: \(WireText.quoted(value))")
    }

    package static func contentLengthTooLarge(_ value: some StringProtocol) -> WireError {
        WireError(.contentLengthTooLarge,
                  "the server's answer has a Content-Length larger than \(Int64.max): \(WireText.quoted(value))")
    }

    package static func conflictingContentLengths(_ first: Int64, _ second: Int64) -> WireError {
        WireError(.conflictingContentLengths, "the server's answer has two different Content-Length values (\(first) and \(second))")
    }

    // MARK: The chunked coding

    package static func invalidChunkSize(_ line: ArraySlice<UInt8>) -> WireError {
        WireError(.invalidChunkSize, "the server's chunked body has a chunk size that is not hexadecimal: \(WireText.quoted(line))")
    }

    package static func chunkSizeTooLarge(_ line: ArraySlice<UInt8>) -> WireError {
        WireError(.chunkSizeTooLarge,
                  "the server's chunked body has a chunk size past 16 hexadecimal digits or \(Int64.max) bytes: \(WireText.quoted(line))")
    }

    package static func invalidChunkExtension(_ line: ArraySlice<UInt8>) -> WireError {
        WireError(.invalidChunkExtension, "the server's chunked body has a malformed chunk extension: \(WireText.quoted(line))")
    }

    package static func missingChunkTerminator(size: Int64, found byte: UInt8) -> WireError {
        WireError(.missingChunkTerminator,
                  "the server's chunked body has a chunk of \(size) bytes followed by \(named(byte)) instead of CRLF")
    }

    // MARK: The connection closed too soon

    package static let closedBeforeResponse = WireError(.closedBeforeResponse, "the server closed the connection without answering")

    package static let cutWithoutCloseNotify = WireError(.cutWithoutCloseNotify,
        "the TLS connection closed without the server's close_notify while the body ran until the close: "
            + "it may have been cut on the way, so it is not taken as whole")

    package static func closedInHead(after count: Int) -> WireError {
        WireError(.closedInHead,
                  "the server closed the connection before its answer's head was complete (after \(count) bytes)")
    }

    package static func closedInBody(received: Int64, declared: Int64) -> WireError {
        WireError(.closedInBody,
                  "the server closed the connection after \(received) of \(declared) bytes of its answer's body")
    }

    /// `detail` says where, as in `5 of 16 bytes of a chunk received`.
    package static func closedInChunkedBody(_ detail: String) -> WireError {
        WireError(.closedInChunkedBody, "the server closed the connection in the middle of its answer's chunked body (\(detail))")
    }

    // MARK: Bytes in sentences

    /// `byte` as a sentence names it: `the control byte 0x00 (NUL)`, `the byte "x"`.
    package static func named(_ byte: UInt8) -> String {
        switch byte {
        case 0x00: "the control byte 0x00 (NUL)"
        case WireText.carriageReturn: "a carriage return (CR)"
        case WireText.lineFeed: "a line feed (LF)"
        case 0x01..<0x20, 0x7F: "the control byte 0x\(WireText.hex(byte))"
        default: "the byte \(WireText.quoted(CollectionOfOne(byte)))"
        }
    }
}
