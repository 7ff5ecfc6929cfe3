@testable import BatonWire
import XCTest

/// ResponseParser: a server's HTTP/1.x response becomes its head, body and end, the same whatever
/// the pieces its bytes come in (whole, byte by byte, cut anywhere, random pieces), and every
/// malformed response is refused with its own kind and sentence (ResponseParserTests+Refusals).
final class ResponseParserTests: XCTestCase {
    // MARK: The status line

    func test_contentLengthAnswer_givesHeadBodyEnd_andKeepsTheConnection() {
        assertResponse(responseBytes("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello"),
                     events: responseEvents(200, "OK", ["Content-Type: text/plain", "Content-Length: 5"], body: "hello"),
                     keepsConnection: true, declaredLength: 5)
    }

    func test_bareLineFeeds_endLinesToo() {
        assertResponse(responseBytes("HTTP/1.1 404 Not Found\nContent-Length: 2\n\nno"),
                     events: responseEvents(404, "Not Found", ["Content-Length: 2"], body: "no"), keepsConnection: true, declaredLength: 2)
    }

    func test_emptyReason_withOrWithoutItsSpace() {
        for text in ["HTTP/1.1 200 \r\nContent-Length: 0\r\n\r\n", "HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n"] {
            assertResponse(responseBytes(text), events: responseEvents(200, "", ["Content-Length: 0"]), keepsConnection: true, declaredLength: 0)
        }
    }

    func test_reason_keepsSpacesTabsAndNonASCIIBytes() {
        assertResponse(responseBytes("HTTP/1.1 200 All \tgood, ça va\r\nContent-Length: 0\r\n\r\n"),
                     events: responseEvents(200, "All \tgood, ça va", ["Content-Length: 0"]), keepsConnection: true, declaredLength: 0)
        // Bytes that are not UTF-8 read as ISO-8859-1, none lost.
        assertResponse(responseBytes("HTTP/1.1 200 ") + [0xE9] + responseBytes("t\r\nContent-Length: 0\r\n\r\n"),
                     events: responseEvents(200, "\u{E9}t", ["Content-Length: 0"]), keepsConnection: true, declaredLength: 0)
    }

    func test_laterMinorVersion_readsAsHTTP1x() {
        assertResponse(responseBytes("HTTP/1.2 200 OK\r\nContent-Length: 0\r\n\r\n"),
                     events: responseEvents(200, "OK", ["Content-Length: 0"], version: "HTTP/1.2"), keepsConnection: true, declaredLength: 0)
    }

    func test_statusCodes_100To599_areAccepted() {
        assertResponse(responseBytes("HTTP/1.1 599 Odd\r\nContent-Length: 0\r\n\r\n"),
                     events: responseEvents(599, "Odd", ["Content-Length: 0"]), keepsConnection: true, declaredLength: 0)
    }

    // MARK: Interim responses

    func test_interimAnswers_areSkipped() {
        let text = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\n\r\n"
            + "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n"
            + "HTTP/1.1 199 Whatever\nX: y\n\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nhi"
        assertResponse(responseBytes(text), events: responseEvents(200, "OK", ["Content-Length: 2"], body: "hi"), keepsConnection: true, declaredLength: 2)
    }

    // MARK: Fields

    func test_fields_keepTheirOrderAndNames_valuesTrimmedOfWhitespace() {
        let text = "HTTP/1.1 200 OK\r\nX-One:  a  b \t\r\nx-one:b\r\nEmpty:\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n"
            + "Odd!#$%&'*+-.^_`|~9: v\r\nContent-Length: 0\r\n\r\n"
        let fields = ["X-One: a  b", "x-one: b", "Empty: ", "Set-Cookie: a=1", "Set-Cookie: b=2", "Odd!#$%&'*+-.^_`|~9: v", "Content-Length: 0"]
        assertResponse(responseBytes(text), events: responseEvents(200, "OK", fields), keepsConnection: true, declaredLength: 0)
    }

    func test_headSubscript_isCaseInsensitive_joiningRepeatedFields() {
        let head = ResponseHead(version: .http1_1, status: 200, reason: "OK",
                                fields: [("X-One", "a"), ("Set-Cookie", "a=1"), ("x-ONE", "b"), ("Set-Cookie", "b=2")])
        XCTAssertEqual(head["x-one"], "a, b")
        XCTAssertEqual(head["SET-COOKIE"], "a=1, b=2")
        XCTAssertEqual(head.values(for: "set-cookie"), ["a=1", "b=2"])
        XCTAssertNil(head["Missing"])
        XCTAssertEqual(head.values(for: "Missing"), [])
    }

    func test_fieldValues_decodeUTF8_elseISO8859_1() {
        assertResponse(responseBytes("HTTP/1.1 200 OK\r\nA: 山田\r\nB: ") + [0xFC, 0x80] + responseBytes("\r\nContent-Length: 0\r\n\r\n"),
                     events: responseEvents(200, "OK", ["A: 山田", "B: \u{FC}\u{80}", "Content-Length: 0"]),
                     keepsConnection: true, declaredLength: 0)
    }

    func test_limits_reachedExactly_pass() {
        // Three fields, every line of 15 or 16 bytes, the head exactly its limit.
        let text = "HTTP/1.1 200 OK\r\nA: 0123456789abc\r\nB: 0123456789abc\r\nContent-Length:0\r\n\r\n"
        let limits = ResponseLimits(maximumHeadBytes: text.utf8.count, maximumLineBytes: 16, maximumFieldCount: 3)
        assertResponse(responseBytes(text), limits: limits,
                     events: responseEvents(200, "OK", ["A: 0123456789abc", "B: 0123456789abc", "Content-Length: 0"]),
                     keepsConnection: true, declaredLength: 0)
        // The same limits hold a trailer section on its own.
        let chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding:chunked\r\n\r\n0\r\nA: 0123456789abc\r\n\r\n"
        let trailerLimits = ResponseLimits(maximumHeadBytes: 46, maximumLineBytes: 25, maximumFieldCount: 1)
        assertResponse(responseBytes(chunked), limits: trailerLimits,
                     events: responseEvents(200, "OK", ["Transfer-Encoding: chunked"], trailers: ["A: 0123456789abc"]),
                     keepsConnection: true)
    }

    // MARK: Framing

    func test_noBody_forHEAD_204_304_whateverTheyDeclare() {
        assertResponse(responseBytes("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"), method: "HEAD",
                     events: responseEvents(200, "OK", ["Content-Length: 1000"]), keepsConnection: true)
        assertResponse(responseBytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"), method: "HEAD",
                     events: responseEvents(200, "OK", ["Transfer-Encoding: chunked"]), keepsConnection: true)
        assertResponse(responseBytes("HTTP/1.1 204 No Content\r\nContent-Length: 7\r\n\r\n"),
                     events: responseEvents(204, "No Content", ["Content-Length: 7"]), keepsConnection: true)
        assertResponse(responseBytes("HTTP/1.1 304 Not Modified\r\nTransfer-Encoding: gzip\r\n\r\n"),
                     events: responseEvents(304, "Not Modified", ["Transfer-Encoding: gzip"]), keepsConnection: true)
    }

    /// A proxy's `2xx` to `CONNECT` ends with its head: what follows is the tunnel's, left
    /// unused; its refusals keep their bodies.
    func test_aSuccessfulAnswerToCONNECT_endsWithItsHead() {
        let head = "HTTP/1.1 200 Connection Established\r\n\r\n"
        assertResponse(responseBytes(head + "\u{16}\u{03}"), method: "CONNECT", events: responseEvents(200, "Connection Established", []),
                     consumed: head.utf8.count, keepsConnection: true)
        assertResponse(responseBytes("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 2\r\n\r\nno"), method: "CONNECT",
                     events: responseEvents(407, "Proxy Authentication Required", ["Content-Length: 2"], body: "no"),
                     keepsConnection: true, declaredLength: 2)
    }

    func test_bytesAfterTheEnd_areLeftUnused() {
        let answer = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"
        assertResponse(responseBytes(answer + "HTTP/1.1 200 OK\r\n"), events: responseEvents(200, "OK", ["Content-Length: 3"], body: "abc"),
                     consumed: answer.utf8.count, keepsConnection: true, declaredLength: 3)
        let head = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n"
        assertResponse(responseBytes(head + "abc"), method: "HEAD", events: responseEvents(200, "OK", ["Content-Length: 3"]),
                     consumed: head.utf8.count, keepsConnection: true)
    }

    func test_contentLength_equalValues_listedOrRepeated_andLeadingZeros() {
        assertResponse(responseBytes("HTTP/1.1 200 OK\r\nContent-Length: 3, 03\r\nContent-Length: 3\r\n\r\nabc"),
                     events: responseEvents(200, "OK", ["Content-Length: 3, 03", "Content-Length: 3"], body: "abc"),
                     keepsConnection: true, declaredLength: 3)
    }

    func test_contentLength_upToInt64Max_isDeclared() throws {
        var parser = ResponseParser(requestMethod: "GET")
        let bytes = responseBytes("HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775807\r\n\r\nab")
        var body = 0
        let used = try bytes.withUnsafeBytes { buffer in
            try parser.parse(buffer) { if case .body(let piece) = $0 { body += piece.count } }
        }
        XCTAssertEqual(used, bytes.count)
        XCTAssertEqual(body, 2)
        XCTAssertEqual(parser.declaredLength, Int64.max)
        XCTAssertFalse(parser.isComplete)
        XCTAssertFalse(parser.keepsConnection)
    }

    func test_closeDelimitedBody_endsWithTheClose_andNeverKeepsTheConnection() {
        assertResponse(responseBytes("HTTP/1.0 200 OK\r\nServer: old\r\n\r\nall of it"),
                     events: responseEvents(200, "OK", ["Server: old"], body: "all of it", version: "HTTP/1.0"), keepsConnection: false)
        assertResponse(responseBytes("HTTP/1.1 200 OK\r\nConnection: keep-alive\r\n\r\nall of it"),
                     events: responseEvents(200, "OK", ["Connection: keep-alive"], body: "all of it"), keepsConnection: false)
        assertResponse(responseBytes("HTTP/1.1 200 OK\r\n\r\n"), events: responseEvents(200, "OK", []), keepsConnection: false)
    }

    func test_keepsConnection_byVersionAndConnectionField() {
        let cases: [(String, Bool)] = [
            ("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n", true),
            ("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n", false),
            ("HTTP/1.1 200 OK\r\nConnection: Upgrade, CLOSE\r\nContent-Length: 0\r\n\r\n", false),
            ("HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n", false),
            ("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n", true),
            ("HTTP/1.0 200 OK\r\nConnection: keep-alive, close\r\nContent-Length: 0\r\n\r\n", false),
        ]
        for (text, keeps) in cases {
            let parsed = parseResponse(responseBytes(text), feeding: .byteByByte)
            XCTAssertNil(parsed.error, text)
            XCTAssertEqual(parsed.keepsConnection, keeps, text.debugDescription)
        }
    }

    func test_keepsConnection_isFalseBeforeTheEnd() throws {
        var parser = ResponseParser(requestMethod: "GET")
        _ = try responseBytes("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\na").withUnsafeBytes { try parser.parse($0) { _ in } }
        XCTAssertFalse(parser.keepsConnection)
        XCTAssertFalse(parser.isComplete)
        _ = try responseBytes("b").withUnsafeBytes { try parser.parse($0) { _ in } }
        XCTAssertTrue(parser.keepsConnection)
        XCTAssertTrue(parser.isComplete)
        XCTAssertEqual(try responseBytes("more").withUnsafeBytes { try parser.parse($0) { _ in XCTFail("an event after the end") } }, 0)
        try parser.parseEnd { _ in XCTFail("an event after the end") }
    }

    func test_bodyEvents_pointIntoTheBytesGiven() throws {
        var parser = ResponseParser(requestMethod: "GET")
        let bytes = responseBytes("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
        try bytes.withUnsafeBytes { buffer in
            _ = try parser.parse(buffer) { event in
                guard case .body(let piece) = event else { return }
                XCTAssertEqual(piece.baseAddress, buffer.baseAddress.map { $0 + bytes.count - 5 })
                XCTAssertEqual(piece.count, 5)
            }
        }
    }

    // MARK: The chunked coding

    func test_chunked_withExtensionsAndTrailers() {
        let text = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "5\r\nhello\r\n1a;name=value ; flag;q=\"a \\\"quoted\\\" ;x\"\r\nabcdefghijklmnopqrstuvwxyz\r\n"
            + "000A\r\n0123456789\r\n0;last\r\nChecksum: abc\r\nx-more:  1 \r\n\r\n"
        assertResponse(responseBytes(text), events: responseEvents(200, "OK", ["Transfer-Encoding: chunked"],
                                                      body: "helloabcdefghijklmnopqrstuvwxyz0123456789",
                                                      trailers: ["Checksum: abc", "x-more: 1"]),
                     keepsConnection: true)
    }

    func test_chunked_codingNameIsCaseInsensitive_emptyListElementsIgnored_bareLineFeedsInLines() {
        assertResponse(responseBytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: , Chunked\r\n\r\n3\nabc\r\n0\n\n"),
                     events: responseEvents(200, "OK", ["Transfer-Encoding: , Chunked"], body: "abc"), keepsConnection: true)
    }

    func test_chunked_sizeOf16HexDigits_isAccepted() {
        assertResponse(responseBytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0000000000000003\r\nabc\r\n0\r\n\r\n"),
                     events: responseEvents(200, "OK", ["Transfer-Encoding: chunked"], body: "abc"), keepsConnection: true)
    }

    func test_chunked_withConnectionClose_doesNotKeepTheConnection_andLeavesBytesAfter() {
        let answer = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\nab\r\n0\r\n\r\n"
        assertResponse(responseBytes(answer + "junk"), events: responseEvents(200, "OK", ["Transfer-Encoding: chunked", "Connection: close"], body: "ab"),
                     consumed: answer.utf8.count, keepsConnection: false)
    }

    // MARK: Errors

    func test_afterAnError_everyCallThrowsItAgain() throws {
        var parser = ResponseParser(requestMethod: "GET")
        XCTAssertThrowsError(try responseBytes("HTTP/3 200 OK\r\n").withUnsafeBytes { try parser.parse($0) { _ in } }) { error in
            XCTAssertEqual((error as? WireError)?.kind, .invalidStatusLine)
        }
        let first = try XCTUnwrap(parseResponse(responseBytes("HTTP/3 200 OK\r\n")).error)
        XCTAssertThrowsError(try responseBytes("HTTP/1.1 200 OK\r\n").withUnsafeBytes { try parser.parse($0) { _ in } }) { error in
            XCTAssertEqual(error as? WireError, first)
        }
        XCTAssertThrowsError(try parser.parseEnd { _ in }) { XCTAssertEqual($0 as? WireError, first) }
    }

    func test_handlerErrors_areThrownOn() {
        struct Stop: Error {}
        var parser = ResponseParser(requestMethod: "GET")
        XCTAssertThrowsError(try responseBytes("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n").withUnsafeBytes {
            try parser.parse($0) { _ in throw Stop() }
        }) { XCTAssert($0 is Stop) }
    }
}
