import XCTest
@testable import DemoServer

/// The request parser on bytes alone, no socket.
final class HTTPRequestParserTests: XCTestCase {
    /// A request as the parser reported it.
    struct Parsed: Equatable {
        var method: String
        var path: String
        var query: String
        var body: [UInt8]
    }

    /// Feeds `text` in pieces of `pieceSize` bytes and collects every complete request.
    private func parse(_ text: String, pieceSize: Int = .max, maxBody: Int = 1 << 20) throws -> [Parsed] {
        var parser = HTTPRequestParser(maxBodyBytes: maxBody)
        var requests: [Parsed] = []
        var current: Parsed?
        let bytes = Array(text.utf8)
        var offset = 0
        repeat {
            let end = min(bytes.count, offset.addingReportingOverflow(pieceSize).overflow ? bytes.count : offset + pieceSize)
            parser.append(Array(bytes[offset..<end]))
            offset = end
            while let event = try parser.next() {
                switch event {
                case .head(let head): current = Parsed(method: head.method, path: head.path, query: head.query, body: [])
                case .body(let piece): current?.body += piece
                case .end: requests.append(current!)
                }
            }
        } while offset < bytes.count
        return requests
    }

    private func parseError(_ text: String, maxBody: Int = 1 << 20) -> HTTPParseError? {
        do {
            _ = try parse(text, maxBody: maxBody)
            return nil
        } catch {
            return error as? HTTPParseError
        }
    }

    private struct NoHead: Error {}

    private func head(_ text: String) throws -> HTTPRequestHead {
        var parser = HTTPRequestParser(maxBodyBytes: 1 << 20)
        parser.append(Array(text.utf8))
        guard case .head(let head) = try parser.next() else { throw NoHead() }
        return head
    }

    func test_simpleGet_yieldsPathQueryAndNoBody() throws {
        let requests = try parse("GET /order_search?name=%E5%B1%B1 HTTP/1.1\nHost: x\n\n".crlf)
        XCTAssertEqual(requests, [Parsed(method: "GET", path: "/order_search", query: "name=%E5%B1%B1", body: [])])
    }

    func test_requestFedOneByteAtATime_parsesIdentically() throws {
        let text = "POST /tokens HTTP/1.1\nHost: x\nContent-Length: 5\n\nhello".crlf
        XCTAssertEqual(try parse(text, pieceSize: 1), [Parsed(method: "POST", path: "/tokens", query: "", body: Array("hello".utf8))])
    }

    func test_pipelinedRequests_comeOutInOrder() throws {
        let text = "GET /a HTTP/1.1\nHost: x\n\nPOST /b HTTP/1.1\nHost: x\nContent-Length: 2\n\nokGET /c HTTP/1.1\nHost: x\n\n".crlf
        XCTAssertEqual(try parse(text).map(\.path), ["/a", "/b", "/c"])
    }

    func test_chunkedBodyWithExtensionsAndTrailers_isReassembled() throws {
        let text = "POST /e HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n5;name=value\nhello\n6\n world\n0\nX-Trailer: 1\n\nGET /next HTTP/1.1\nHost: x\n\n".crlf
        for pieceSize in [1, 7, Int.max] {
            let requests = try parse(text, pieceSize: pieceSize)
            XCTAssertEqual(requests.map(\.path), ["/e", "/next"])
            XCTAssertEqual(String(decoding: requests[0].body, as: UTF8.self), "hello world")
        }
    }

    func test_bareLineFeeds_areAccepted() throws {
        XCTAssertEqual(try parse("GET /lf HTTP/1.1\nHost: x\n\n").map(\.path), ["/lf"])
    }

    func test_leadingEmptyLines_areIgnored() throws {
        XCTAssertEqual(try parse("\r\n\r\nGET /x HTTP/1.1\r\nHost: x\r\n\r\n").map(\.path), ["/x"])
    }

    func test_absoluteFormTarget_keepsPathAndQuery() throws {
        let head = try head("GET http://127.0.0.1:8080/orders/1?a=b HTTP/1.1\nHost: x\n\n".crlf)
        XCTAssertEqual(head.path, "/orders/1")
        XCTAssertEqual(head.query, "a=b")
    }

    func test_keepAlive_followsVersionAndConnectionHeader() throws {
        XCTAssertTrue(try head("GET / HTTP/1.1\nHost: x\n\n".crlf).keepAlive)
        XCTAssertFalse(try head("GET / HTTP/1.1\nHost: x\nConnection: close\n\n".crlf).keepAlive)
        XCTAssertFalse(try head("GET / HTTP/1.0\n\n".crlf).keepAlive)
        XCTAssertTrue(try head("GET / HTTP/1.0\nConnection: Keep-Alive\n\n".crlf).keepAlive)
    }

    func test_expect100Continue_isReportedBeforeTheBody() throws {
        let head = try head("PUT /e HTTP/1.1\nHost: x\nContent-Length: 10\nExpect: 100-continue\n\n".crlf)
        XCTAssertTrue(head.expectsContinue)
        XCTAssertEqual(head.framing, .contentLength(10))
    }

    func test_repeatedEqualContentLengths_areAccepted() throws {
        let requests = try parse("POST /a HTTP/1.1\nHost: x\nContent-Length: 2, 2\nContent-Length: 2\n\nok".crlf)
        XCTAssertEqual(requests.first?.body, Array("ok".utf8))
    }

    func test_malformedRequests_failWithTheDocumentedStatus() {
        let cases: [(String, Int)] = [
            ("GET /\n\n", 400),                                                    // two-part request line
            ("GET  / HTTP/1.1\nHost: x\n\n", 400),                                 // double space
            ("BREW / HTTP/1.1\nHost: x\n\n", 400),                                 // unknown method
            ("get / HTTP/1.1\nHost: x\n\n", 400),                                  // methods are case-sensitive
            ("GET orders HTTP/1.1\nHost: x\n\n", 400),                             // not a path
            ("GET / HTTP/1.1\n\n", 400),                                           // no Host
            ("GET / HTTP/1.1\nHost: a\nHost: b\n\n", 400),                         // two Hosts
            ("GET / HTTP/2.0\nHost: x\n\n", 505),
            ("GET / HTTP/x.y\nHost: x\n\n", 400),
            ("GET / HTTP/1.1\nHost: x\nNoColon\n\n", 400),
            ("GET / HTTP/1.1\nHost: x\nBad Name: v\n\n", 400),
            ("GET / HTTP/1.1\nHost: x\n folded\n\n", 400),
            ("POST / HTTP/1.1\nHost: x\nContent-Length: -1\n\n", 400),
            ("POST / HTTP/1.1\nHost: x\nContent-Length: abc\n\n", 400),
            ("POST / HTTP/1.1\nHost: x\nContent-Length: 1\nContent-Length: 2\n\n", 400),
            ("POST / HTTP/1.1\nHost: x\nContent-Length: 99999999999999999999999\n\n", 413),
            ("POST / HTTP/1.1\nHost: x\nContent-Length: 2000000\n\n", 413),
            ("POST / HTTP/1.1\nHost: x\nContent-Length: 1\nTransfer-Encoding: chunked\n\n", 400),
            ("POST / HTTP/1.1\nHost: x\nTransfer-Encoding: gzip\n\n", 400),
            ("POST / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\nzz\n", 400),
            ("POST / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\nfffffffffffffffffffff\n", 413),
            ("POST / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n3\nabcdef\n", 400),
            ("PUT / HTTP/1.1\nHost: x\nExpect: teapot\n\n", 417),
        ]
        for (text, status) in cases {
            XCTAssertEqual(parseError(text.crlf)?.status, status, text)
        }
    }

    func test_controlByteInRequestLine_failsBeforeTheLineEnds() {
        var parser = HTTPRequestParser(maxBodyBytes: 1024)
        parser.append([0x47, 0x00, 0xff])
        XCTAssertThrowsError(try parser.next()) { XCTAssertEqual(($0 as? HTTPParseError)?.status, 400) }
    }

    func test_headerBlockOver64KiB_fails431WithoutWaitingForItsEnd() {
        var parser = HTTPRequestParser(maxBodyBytes: 1024)
        parser.append(Array("GET / HTTP/1.1\r\nHost: x\r\nX-Big: ".utf8) + [UInt8](repeating: 0x61, count: 70_000))
        XCTAssertThrowsError(try parser.next()) { XCTAssertEqual($0 as? HTTPParseError, .headersTooLarge) }
    }

    func test_chunkedBodyOverTheLimit_fails413() {
        let text = "POST / HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n8\n12345678\n8\n12345678\n".crlf
        XCTAssertEqual(parseError(text, maxBody: 12)?.status, 413)
    }

    func test_idleParser_reportsBetweenRequestsUntilBytesArrive() throws {
        var parser = HTTPRequestParser(maxBodyBytes: 1024)
        XCTAssertTrue(parser.isBetweenRequests)
        parser.append(Array("GET".utf8))
        XCTAssertNil(try parser.next())
        XCTAssertFalse(parser.isBetweenRequests)
        XCTAssertTrue(parser.isReadingHead)
    }
}
