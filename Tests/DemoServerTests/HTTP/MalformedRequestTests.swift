import BatonSupport
import Foundation
import XCTest
@testable import DemoServer

/// What a client can send that is not HTTP, over a raw socket: each gets its documented response and a
/// closed connection within a bounded time, and the server keeps serving.
final class MalformedRequestTests: ServerTestCase {
    enum Expected: Equatable, Sendable {
        /// This status, then the connection closed.
        case status(Int)
        /// 408 once the 1 s idle timeout passed, then closed.
        case timeout
        /// Closed after the idle timeout without a byte.
        case closedWithoutResponse
    }

    struct Case: Sendable {
        var name: String
        var bytes: [UInt8]
        var expected: Expected

        init(_ name: String, _ text: String, _ expected: Expected) {
            self.name = name
            bytes = Array(text.crlf.utf8)
            self.expected = expected
        }

        init(_ name: String, bytes: [UInt8], _ expected: Expected) {
            self.name = name
            self.bytes = bytes
            self.expected = expected
        }
    }

    override func makeConfiguration() -> DemoServer.Configuration {
        var configuration = super.makeConfiguration()
        configuration.maxBodyBytes = 1 << 20
        // Cases wait for it: an idle connection answered 408, or closed.
        configuration.idleTimeout = 1
        return configuration
    }

    static let cases: [Case] = [
        Case("request line without version", "GET /\n\n", .status(400)),
        Case("request line with four parts", "GET / HTTP/1.1 extra\nHost: x\n\n", .status(400)),
        Case("request line with double space", "GET  / HTTP/1.1\nHost: x\n\n", .status(400)),
        Case("empty method", " / HTTP/1.1\nHost: x\n\n", .status(400)),
        Case("unknown method", "BREW /pot HTTP/1.1\nHost: x\n\n", .status(400)),
        Case("lower-case method", "get /health HTTP/1.1\nHost: x\n\n", .status(400)),
        Case("target not a path", "GET health HTTP/1.1\nHost: x\n\n", .status(400)),
        Case("raw UTF-8 in target", "GET /山田 HTTP/1.1\nHost: x\n\n", .status(400)),
        Case("unsupported version", "GET / HTTP/2.0\nHost: x\n\n", .status(505)),
        Case("garbage version", "GET / HTTP/one\nHost: x\n\n", .status(400)),
        Case("header without colon", "GET / HTTP/1.1\nHost: x\nJustAName\n\n", .status(400)),
        Case("space before colon", "GET / HTTP/1.1\nHost: x\nX-A : 1\n\n", .status(400)),
        Case("obsolete line folding", "GET / HTTP/1.1\nHost: x\nX-A: 1\n  continued\n\n", .status(400)),
        Case("NUL in header value", "GET / HTTP/1.1\nHost: x\nX-A: a\u{0}b\n\n", .status(400)),
        Case("bare CR in header", "GET / HTTP/1.1\nHost: x\nX-A: a\rb\n\n", .status(400)),
        Case("HTTP/1.1 without Host", "GET /health HTTP/1.1\n\n", .status(400)),
        Case("two Host fields", "GET /health HTTP/1.1\nHost: a\nHost: b\n\n", .status(400)),
        Case("one header over 64 KiB", "GET / HTTP/1.1\nHost: x\nX-Big: " + String(repeating: "a", count: 70_000) + "\n\n", .status(431)),
        Case("header block over 64 KiB", "GET / HTTP/1.1\nHost: x\n"
            + String(repeating: "X-Many: " + String(repeating: "b", count: 90) + "\n", count: 800) + "\n", .status(431)),
        Case("request line over 64 KiB", "GET /" + String(repeating: "a", count: 70_000), .status(431)),
        Case("negative Content-Length", "POST /_demo/echo HTTP/1.1\nHost: x\nContent-Length: -5\n\n", .status(400)),
        Case("non-numeric Content-Length", "POST /_demo/echo HTTP/1.1\nHost: x\nContent-Length: ten\n\n", .status(400)),
        Case("hex Content-Length", "POST /_demo/echo HTTP/1.1\nHost: x\nContent-Length: 0x10\n\n", .status(400)),
        Case("conflicting Content-Length", "POST /_demo/echo HTTP/1.1\nHost: x\nContent-Length: 3\nContent-Length: 4\n\nabcd", .status(400)),
        Case("Content-Length list that disagrees", "POST /_demo/echo HTTP/1.1\nHost: x\nContent-Length: 3, 4\n\nabcd", .status(400)),
        Case("Content-Length beyond Int", "POST /_demo/echo HTTP/1.1\nHost: x\nContent-Length: 99999999999999999999999\n\n", .status(413)),
        Case("Content-Length over the limit", "POST /_demo/echo HTTP/1.1\nHost: x\nContent-Length: 2000000\n\n", .status(413)),
        Case("Content-Length and Transfer-Encoding", "POST /_demo/echo HTTP/1.1\nHost: x\nContent-Length: 3\nTransfer-Encoding: chunked\n\n3\nabc\n0\n\n", .status(400)),
        Case("unsupported Transfer-Encoding", "POST /_demo/echo HTTP/1.1\nHost: x\nTransfer-Encoding: gzip\n\n", .status(400)),
        Case("Transfer-Encoding in HTTP/1.0", "POST /_demo/echo HTTP/1.0\nTransfer-Encoding: chunked\n\n0\n\n", .status(400)),
        Case("invalid chunk size", "POST /_demo/echo HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\nxyz\nabc\n0\n\n", .status(400)),
        Case("empty chunk size", "POST /_demo/echo HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n;ext\n\n", .status(400)),
        Case("chunk size beyond Int", "POST /_demo/echo HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\nffffffffffffffffffffffff\n", .status(413)),
        Case("chunk longer than declared", "POST /_demo/echo HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n2\nabcdef\n0\n\n", .status(400)),
        Case("chunked body over the limit", "POST /_demo/echo HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n100001\n", .status(413)),
        Case("unknown expectation", "PUT /_demo/echo HTTP/1.1\nHost: x\nExpect: 200-ok\nContent-Length: 1\n\nx", .status(417)),
        Case("TLS handshake on the plain port", bytes: [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03]
            + testBytes(count: 200, seed: 9), .status(400)),
        Case("binary garbage with NULs", bytes: [0x00, 0x00, 0xff, 0xfe] + testBytes(count: 3000, seed: 10), .status(400)),
        Case("body shorter than declared, then silence", "POST /_demo/echo HTTP/1.1\nHost: x\nContent-Length: 100\n\nonly this", .timeout),
        Case("chunked body stopping mid-chunk", "POST /_demo/echo HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n10\nabc", .timeout),
        Case("head never finished", "GET /health HTTP/1.1\nHost: x\nX-Partial: ", .timeout),
        Case("connection opened and left idle", bytes: [], .closedWithoutResponse),
    ]

    func test_malformedRequests_getTheDocumentedAnswerAndAClosedConnection() throws {
        let cases = Self.cases
        XCTAssertGreaterThanOrEqual(cases.count, 30)
        let port = server.port
        let results = Locked(Array(repeating: "not run", count: cases.count))
        // Cases run side by side so the four that wait for the idle timeout take one second, not four.
        DispatchQueue.concurrentPerform(iterations: cases.count) { index in
            let outcome = Self.run(cases[index], port: port)
            results.withLock { $0[index] = outcome }
        }
        for (index, testCase) in cases.enumerated() {
            XCTAssertEqual(results.value[index], "ok", testCase.name)
        }
        // Still serving, on a new connection.
        let client = try rawClient()
        client.send("GET /health HTTP/1.1\nHost: x\n\n".crlf)
        XCTAssertEqual(try client.readResponse().text, #"{"status":"ok"}"#)
        let refused = cases.filter { $0.expected != .closedWithoutResponse }.count
        client.send("GET /_demo/stats HTTP/1.1\nHost: x\n\n".crlf)
        let stats = try JSONSerialization.jsonObject(with: Data(try client.readResponse().body)) as? [String: Any]
        XCTAssertEqual(stats?["malformed"] as? Int, refused)
    }

    func test_slowlorisHead_isCutOffWithinTheIdleTimeout() throws {
        let client = try rawClient(readTimeout: 0.2)
        let start = ContinuousClock.now
        var closedAfter: Duration?
        // One byte every 200 ms, forever: the whole head must arrive within the 1 s timeout.
        for byte in Array("GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa".utf8) {
            if !client.send([byte]) { break }
            let (closed, bytes) = client.readUntilClosed()
            if closed || !bytes.isEmpty {
                closedAfter = ContinuousClock.now - start
                XCTAssertTrue(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 408 "))
                break
            }
        }
        // Sending the whole head would take 11 s: the cut came before it ended.
        XCTAssertNotNil(closedAfter, "the server waited for the whole slow head")
    }

    /// Sends one case and checks what comes back; "ok" or what went wrong.
    private static func run(_ testCase: Case, port: UInt16) -> String {
        do {
            let client = try RawClient(port: port)
            let start = ContinuousClock.now
            if !testCase.bytes.isEmpty { client.send(testCase.bytes) }
            switch testCase.expected {
            case .status(let status):
                let response = try client.readResponse()
                guard response.status == status else { return "status \(response.status), expected \(status)" }
                guard response.headers["connection"] == "close" else { return "no Connection: close" }
            case .timeout:
                let response = try client.readResponse()
                guard response.status == 408 else { return "status \(response.status), expected 408" }
                guard ContinuousClock.now - start >= .milliseconds(900) else { return "answered before the timeout" }
            case .closedWithoutResponse:
                let (closed, bytes) = client.readUntilClosed()
                guard closed, bytes.isEmpty else { return "not closed silently: \(bytes.count) bytes" }
            }
            let (closed, _) = client.readUntilClosed()
            // Closed before the read timeout (a hang guard): a server that left it open fails here.
            guard closed else { return "connection left open" }
            return "ok"
        } catch {
            return "error \(error)"
        }
    }
}

/// A multipart body with no closing boundary, over a raw socket: a 422 on a connection that stays usable.
final class MalformedMultipartTests: ServerTestCase {
    func test_multipartWithoutClosingBoundary_answers422AndKeepsTheConnection() async throws {
        let token = try await login().token
        let review = try await postJSON("/facilities/1/reviews", ["content": "x", "rating": 3], token: token)
        XCTAssertEqual(review.status, 201)
        let body = "--XYZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.jpg\"\r\nContent-Type: image/jpeg\r\n\r\nabc"
        let client = try rawClient()
        client.send("POST /reviews/1/photos HTTP/1.1\nHost: x\nAuthorization: Bearer \(token)\n".crlf
            + "Content-Type: multipart/form-data; boundary=XYZ\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 422)
        XCTAssertEqual(response.message, "multipart body has no closing boundary")
        client.send("GET /health HTTP/1.1\nHost: x\n\n".crlf)
        XCTAssertEqual(try client.readResponse().status, 200)
    }
}
