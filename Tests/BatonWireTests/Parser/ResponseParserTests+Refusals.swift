@testable import BatonWire
import XCTest

/// ResponseParser's refusals: each malformed response, fed every way, throws its kind with its
/// sentence.
extension ResponseParserTests {
    private static let chunkedHead = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
    private static let small = ResponseLimits(maximumHeadBytes: 64, maximumLineBytes: 20, maximumFieldCount: 2)

    func test_statusLine_refusals() {
        let notStatusLines = ["HTTP/2 200 OK", "HTTP/2.0 200 OK", "HTTP/0.9 200 OK", "HTTP/1.1 20 OK", "HTTP/1.1 2000 OK",
                              "HTTP/1.1 2x0 OK", "http/1.1 200 OK", "HTTP/1.1  200 OK", "HTTP/1.10 200 OK", "HTTP/1.1", "",
                              "<html>hello</html>", "HTTP/1.1 200\tOK"]
        for line in notStatusLines {
            assertRefusal(responseBytes(line + "\r\nContent-Length: 0\r\n\r\n"), .invalidStatusLine,
                          "the server's answer starts with \(quoted(line)), which is not an HTTP/1.x status line")
        }
        // A long line is shown cut after 60 bytes.
        assertRefusal(responseBytes("HTTP/1.1 200 " + String(repeating: "a", count: 50) + "\u{1}\r\n\r\n"), .invalidReasonPhrase,
                      "the server's status line \"HTTP/1.1 200 " + String(repeating: "a", count: 47)
                          + "…\" has the control byte 0x01 in its reason phrase")
    }

    func test_statusCode_refusals() {
        assertRefusal(responseBytes("HTTP/1.1 600 Too Far\r\n\r\n"), .statusOutOfRange, "the server's answer has the status code 600, outside 100 to 599")
        assertRefusal(responseBytes("HTTP/1.1 099 Too Low\r\n\r\n"), .statusOutOfRange, "the server's answer has the status code 99, outside 100 to 599")
        assertRefusal(responseBytes("HTTP/1.1 200 O\u{0}K\r\n\r\n"), .invalidReasonPhrase,
                      "the server's status line \"HTTP/1.1 200 O\\x00K\" has the control byte 0x00 (NUL) in its reason phrase")
        assertRefusal(responseBytes("HTTP/1.1 200 O\u{7F}K\r\n\r\n"), .invalidReasonPhrase,
                      "the server's status line \"HTTP/1.1 200 O\\x7FK\" has the control byte 0x7F in its reason phrase")
        assertRefusal(responseBytes("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\n\r\n"), .switchingProtocols,
                      "the server's answer is 101 Switching Protocols, and Baton does not switch protocols")
    }

    func test_line_refusals() {
        assertRefusal(responseBytes("HTTP/1.1 200 OK\rContent-Length: 0\r\n\r\n"), .bareCarriageReturn,
                      "the server's answer head has a carriage return (CR) not followed by a line feed (LF)")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nA: b\rc\r\n\r\n"), .bareCarriageReturn,
                      "the server's answer head has a carriage return (CR) not followed by a line feed (LF)")
        assertRefusal(responseBytes(Self.chunkedHead + "5\r\r\nhello\r\n0\r\n\r\n"), .bareCarriageReturn,
                      "a chunk-size line of the server's chunked body has a carriage return (CR) not followed by a line feed (LF)")
        assertRefusal(responseBytes(Self.chunkedHead + "0\r\nA: b\r\r\n\r\n"), .bareCarriageReturn,
                      "the trailers of the server's chunked body has a carriage return (CR) not followed by a line feed (LF)")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nA: 012345678901234567\r\n\r\n"), limits: Self.small, .lineTooLong,
                      "the server's answer head has a line longer than the limit of 20 bytes (maximumLineBytes)")
        assertRefusal(responseBytes("HTTP/1.1 200 OK, quite a long reason\r\n\r\n"), limits: Self.small, .lineTooLong,
                      "the server's answer head has a line longer than the limit of 20 bytes (maximumLineBytes)")
        assertRefusal(responseBytes(Self.chunkedHead + "5;a=01234567890123456789012\r\nhello\r\n0\r\n\r\n"),
                      limits: ResponseLimits(maximumHeadBytes: 64, maximumLineBytes: 26, maximumFieldCount: 2), .lineTooLong,
                      "a chunk-size line of the server's chunked body has a line longer than the limit of 26 bytes (maximumLineBytes)")
    }

    func test_section_limit_refusals() {
        assertRefusal(responseBytes("HTTP/1.1 200 OKAY!!!\r\nA: 0123456789012345\r\nB: 0123456789012345\r\n\r\n"), limits: Self.small, .headTooLarge,
                      "the server's answer head is larger than the limit of 64 bytes (maximumHeadBytes)")
        // Interim responses count towards the limit.
        assertRefusal(responseBytes(String(repeating: "HTTP/1.1 100 Go\r\n\r\n", count: 4)), limits: Self.small,
                      .headTooLarge, "the server's answer head is larger than the limit of 64 bytes (maximumHeadBytes)")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n"), limits: Self.small, .tooManyFields,
                      "the server's answer head has more fields than the limit of 2 (maximumFieldCount)")
        let trailers = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
        let limits = ResponseLimits(maximumHeadBytes: 64, maximumLineBytes: 30, maximumFieldCount: 2)
        assertRefusal(responseBytes(trailers + "A: 1\r\nB: 2\r\nC: 3\r\n\r\n"), limits: limits, .tooManyFields,
                      "the trailers of the server's chunked body has more fields than the limit of 2 (maximumFieldCount)")
        assertRefusal(responseBytes(trailers + "A: 012345678901234567890123456\r\nB: 012345678901234567890123456\r\n\r\n"), limits: limits,
                      .headTooLarge, "the trailers of the server's chunked body is larger than the limit of 64 bytes (maximumHeadBytes)")
        assertRefusal(responseBytes(trailers + "A: 01234567890123456789012345678\r\n\r\n"), limits: limits, .lineTooLong,
                      "the trailers of the server's chunked body has a line longer than the limit of 30 bytes (maximumLineBytes)")
    }

    func test_fieldLine_refusals() {
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nA: b\r\n  c\r\n\r\n"), .obsoleteLineFolding,
                      "the server's answer head has a line starting with whitespace (obsolete line folding): \"  c\"")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\n\tA: b\r\n\r\n"), .obsoleteLineFolding,
                      "the server's answer head has a line starting with whitespace (obsolete line folding): \"\\tA: b\"")
        assertRefusal(responseBytes(Self.chunkedHead + "0\r\nA: b\r\n c\r\n\r\n"), .obsoleteLineFolding,
                      "the trailers of the server's chunked body has a line starting with whitespace (obsolete line folding): \" c\"")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n"), .missingColon,
                      "the server's answer head has a field line without a colon: \"No colon here\"")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\n: empty\r\n\r\n"), .invalidFieldName,
                      "the server's answer head has a field line with an empty name")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nTwo words: x\r\n\r\n"), .invalidFieldName,
                      "the server's answer head has a field name that is not a token: \"Two words\"")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nB(r)acket: x\r\n\r\n"), .invalidFieldName,
                      "the server's answer head has a field name that is not a token: \"B(r)acket\"")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nNä: x\r\n\r\n"), .invalidFieldName,
                      "the server's answer head has a field name that is not a token: \"N\\xC3\\xA4\"")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nContent-Length : 0\r\n\r\n"), .whitespaceBeforeColon,
                      "the server's answer head has whitespace between the field name \"Content-Length\" and its colon")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nA\t: b\r\n\r\n"), .whitespaceBeforeColon,
                      "the server's answer head has whitespace between the field name \"A\" and its colon")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nA: b\u{0}c\r\n\r\n"), .invalidFieldValue,
                      "the server's answer head has the control byte 0x00 (NUL) in the value of the field \"A\"")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nA: \u{1B}[31m\r\n\r\n"), .invalidFieldValue,
                      "the server's answer head has the control byte 0x1B in the value of the field \"A\"")
        assertRefusal(responseBytes(Self.chunkedHead + "0\r\nA: \u{7F}\r\n\r\n"), .invalidFieldValue,
                      "the trailers of the server's chunked body has the control byte 0x7F in the value of the field \"A\"")
    }

    func test_framing_refusals() {
        let codings = [("gzip, chunked", "gzip, chunked"), ("chunked, gzip", "chunked, gzip"), ("chunked, chunked", "chunked, chunked"),
                       ("identity", "identity"), ("chunked;q=1", "chunked;q=1"), ("", ""), (" , ", ",")]
        for (coding, shown) in codings {
            assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: \(coding)\r\n\r\n0\r\n\r\n"), .unsupportedTransferCoding,
                          "the server's answer has Transfer-Encoding \(quoted(shown)), and Baton decodes \"chunked\" alone only")
        }
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
                      .unsupportedTransferCoding,
                      "the server's answer has Transfer-Encoding \"gzip, chunked\", and Baton decodes \"chunked\" alone only")
        assertRefusal(responseBytes("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"), .transferEncodingInHTTP10,
                      "the server's answer is HTTP/1.0 yet has Transfer-Encoding, so its framing cannot be trusted")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
                      .contentLengthWithTransferEncoding,
                      "the server's answer has both Transfer-Encoding and Content-Length, so its length is ambiguous")
        for value in ["abc", "-1", "+5", "1 2", "", "5,", ",5", "0x10", "1.5", "٣"] {
            let element = value.contains(",") ? "" : value
            assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nContent-Length: \(value)\r\n\r\n"), .invalidContentLength,
                          "the server's answer has a Content-Length that is not a decimal number: \(quoted(element))")
        }
        for value in ["9223372036854775808", "18446744073709551616", "12345678901234567890", "99999999999999999999999999"] {
            assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nContent-Length: \(value)\r\n\r\n"), .contentLengthTooLarge,
                          "the server's answer has a Content-Length larger than 9223372036854775807: \"\(value)\"")
        }
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\nContent-Length: 12\r\n\r\n"), .conflictingContentLengths,
                      "the server's answer has two different Content-Length values (10 and 12)")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nContent-Length: 10, 10, 012\r\n\r\n"), .conflictingContentLengths,
                      "the server's answer has two different Content-Length values (10 and 12)")
    }

    func test_chunked_refusals() {
        let head = Self.chunkedHead
        for line in ["xyz", "", " 5", "5 ", "-5", "5\t", "0x5"] {
            assertRefusal(responseBytes(head + line + "\r\nhello\r\n0\r\n\r\n"), .invalidChunkSize,
                          "the server's chunked body has a chunk size that is not hexadecimal: \(quoted(line))")
        }
        for line in ["00000000000000005", "8000000000000000", "ffffffffffffffff", "10000000000000000"] {
            assertRefusal(responseBytes(head + line + "\r\n"), .chunkSizeTooLarge,
                          "the server's chunked body has a chunk size past 16 hexadecimal digits or 9223372036854775807 bytes: \"\(line)\"")
        }
        for line in ["5;", "5;=x", "5;a=", "5;a=\"open", "5;a b", "5;a=b c", "5;a=\"\u{1}\"", "5;a=\"\\\u{1}\"", "5;a ", "5;a=b;"] {
            assertRefusal(responseBytes(head + line + "\r\nhello\r\n0\r\n\r\n"), .invalidChunkExtension,
                          "the server's chunked body has a malformed chunk extension: \(quoted(line))")
        }
        assertRefusal(responseBytes(head + "5\r\nhelloX\r\n0\r\n\r\n"), .missingChunkTerminator,
                      "the server's chunked body has a chunk of 5 bytes followed by the byte \"X\" instead of CRLF")
        assertRefusal(responseBytes(head + "5\r\nhello\rX0\r\n\r\n"), .missingChunkTerminator,
                      "the server's chunked body has a chunk of 5 bytes followed by the byte \"X\" instead of CRLF")
        assertRefusal(responseBytes(head + "5\r\nhello\n0\r\n\r\n"), .missingChunkTerminator,
                      "the server's chunked body has a chunk of 5 bytes followed by a line feed (LF) instead of CRLF")
        assertRefusal(responseBytes(head + "5\r\nhello\r\r\n0\r\n\r\n"), .missingChunkTerminator,
                      "the server's chunked body has a chunk of 5 bytes followed by a carriage return (CR) instead of CRLF")
    }

    func test_closedTooSoon_refusals() {
        assertRefusal([], .closedBeforeResponse, "the server closed the connection without answering")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nContent-Le"), .closedInHead,
                      "the server closed the connection before its answer's head was complete (after 27 bytes)")
        assertRefusal(responseBytes("HTTP/1.1 100 Continue\r\n\r\n"), .closedInHead,
                      "the server closed the connection before its answer's head was complete (after 25 bytes)")
        assertRefusal(responseBytes("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc"), .closedInBody,
                      "the server closed the connection after 3 of 10 bytes of its answer's body")
        assertRefusal(responseBytes(Self.chunkedHead), .closedInChunkedBody,
                      "the server closed the connection in the middle of its answer's chunked body (0 bytes received, no last chunk yet)")
        assertRefusal(responseBytes(Self.chunkedHead + "3\r\nabc\r\n1"), .closedInChunkedBody,
                      "the server closed the connection in the middle of its answer's chunked body (3 bytes received, no last chunk yet)")
        assertRefusal(responseBytes(Self.chunkedHead + "10\r\nabc"), .closedInChunkedBody,
                      "the server closed the connection in the middle of its answer's chunked body (3 of 16 bytes of a chunk received)")
        assertRefusal(responseBytes(Self.chunkedHead + "3\r\nabc\r"), .closedInChunkedBody,
                      "the server closed the connection in the middle of its answer's chunked body (no CRLF yet after a chunk of 3 bytes)")
        assertRefusal(responseBytes(Self.chunkedHead + "3\r\nabc\r\n0\r\nA: b\r\n"), .closedInChunkedBody,
                      "the server closed the connection in the middle of its answer's chunked body (in its trailer section)")
    }

    /// `text` quoted as a sentence quotes bytes.
    private func quoted(_ text: String) -> String { WireText.quoted(text) }
}
