import BatonOpenSSL
import XCTest
@testable import DemoServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP/1.1 on the wire: keep-alive, pipelining, chunked bodies, 100-continue, HEAD, closing.
final class TransportTests: ServerTestCase {
    override func makeConfiguration() -> DemoServer.Configuration {
        var configuration = super.makeConfiguration()
        configuration.maxBodyBytes = 1 << 20
        return configuration
    }

    private func echoObject(_ response: RawClient.Response) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    func test_keepAlive_servesSeveralRequestsOnOneConnection() throws {
        let client = try rawClient()
        for _ in 0..<5 {
            XCTAssertTrue(client.send("GET /health HTTP/1.1\nHost: x\n\n".crlf))
            let response = try client.readResponse()
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.text, #"{"status":"ok"}"#)
            XCTAssertNil(response.headers["connection"])
        }
    }

    func test_pipelinedRequests_areAnsweredInOrder() throws {
        let client = try rawClient()
        let requests = (1...4).map { "GET /_demo/echo?n=\($0) HTTP/1.1\nHost: x\n\n".crlf }.joined()
        client.send(requests + "POST /_demo/echo?n=5 HTTP/1.1\nHost: x\nContent-Length: 3\n\nabc".crlf)
        for n in 1...5 {
            let response = try client.readResponse()
            XCTAssertEqual(try echoObject(response)["query"] as? String, "n=\(n)")
        }
    }

    func test_pipelinedRequestWithDelay_stillAnswersInOrder() throws {
        let client = try rawClient()
        client.send("GET /_demo/echo?n=1 HTTP/1.1\nHost: x\nX-Demo-Fault: delay=200ms\n\nGET /_demo/echo?n=2 HTTP/1.1\nHost: x\n\n".crlf)
        XCTAssertEqual(try echoObject(try client.readResponse())["query"] as? String, "n=1")
        XCTAssertEqual(try echoObject(try client.readResponse())["query"] as? String, "n=2")
    }

    func test_chunkedRequestBody_isReassembled() throws {
        let client = try rawClient()
        client.send("POST /_demo/echo HTTP/1.1\nHost: x\nTransfer-Encoding: chunked\n\n4;ext=1\nabcd\n3\nefg\n0\nTrailer: x\n\n".crlf)
        let object = try echoObject(try client.readResponse())
        XCTAssertEqual(object["body_bytes"] as? Int, 7)
        XCTAssertEqual(object["body_sha256"] as? String, SHA256.hexDigest(of: Array("abcdefg".utf8)))
    }

    func test_expect100Continue_isAnsweredBeforeTheBodyIsSent() throws {
        let client = try rawClient()
        client.send("PUT /_demo/echo HTTP/1.1\nHost: x\nContent-Length: 5\nExpect: 100-continue\n\n".crlf)
        let interim = try client.readResponse()
        XCTAssertEqual(interim.status, 100)
        client.send("hello")
        let final = try client.readResponse()
        XCTAssertEqual(final.status, 200)
        XCTAssertEqual(try echoObject(final)["body_bytes"] as? Int, 5)
    }

    func test_expect100ContinueWithTooLargeBody_answers413InsteadAndCloses() throws {
        let client = try rawClient()
        client.send("PUT /_demo/echo HTTP/1.1\nHost: x\nContent-Length: 2000000\nExpect: 100-continue\n\n".crlf)
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 413)
        XCTAssertEqual(response.headers["connection"], "close")
        XCTAssertTrue(client.readUntilClosed().closed)
    }

    /// libcurl sends `Expect: 100-continue` for large bodies, and without a response waits a second
    /// before sending the body anyway: that the response comes first, before any body byte, is
    /// `test_expect100Continue_isAnsweredBeforeTheBodyIsSent`; this one checks that URLSession's
    /// whole upload arrives intact through that exchange.
    func test_urlSessionUploadExpectingContinue_arrivesWhole() async throws {
        let body = Data(testBytes(count: 200_000))
        let reply = try await send("POST", "/_demo/echo", headers: ["Content-Type": "application/octet-stream",
                                                                    "Expect": "100-continue"], body: body)
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.object["body_bytes"] as? Int, body.count)
    }

    func test_head_hasTheContentLengthOfGetButNoBody() throws {
        let client = try rawClient()
        client.send("HEAD /health HTTP/1.1\nHost: x\n\nGET /health HTTP/1.1\nHost: x\n\n".crlf)
        let head = try client.readResponse(headRequest: true)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["content-length"], "15")
        XCTAssertEqual(head.body, [])
        // Had the HEAD response carried a body, this would read its bytes as a status line.
        let get = try client.readResponse()
        XCTAssertEqual(get.text, #"{"status":"ok"}"#)
    }

    func test_connectionClose_isHonouredAfterTheResponse() throws {
        let client = try rawClient()
        client.send("GET /health HTTP/1.1\nHost: x\nConnection: close\n\n".crlf)
        let response = try client.readResponse()
        XCTAssertEqual(response.status, 200)
        XCTAssertEqual(response.headers["connection"], "close")
        XCTAssertTrue(client.readUntilClosed().closed)
    }

    func test_http10WithoutKeepAlive_closesAfterTheResponse() throws {
        let client = try rawClient()
        client.send("GET /health HTTP/1.0\n\n".crlf)
        XCTAssertEqual(try client.readResponse().status, 200)
        XCTAssertTrue(client.readUntilClosed().closed)
    }

    func test_http10WithKeepAlive_staysOpenAndSaysSo() throws {
        let client = try rawClient()
        for _ in 0..<2 {
            client.send("GET /health HTTP/1.0\nConnection: keep-alive\n\n".crlf)
            let response = try client.readResponse()
            XCTAssertEqual(response.status, 200)
            XCTAssertEqual(response.headers["connection"], "keep-alive")
        }
    }

    func test_everyResponse_hasContentLength() throws {
        let client = try rawClient()
        let requests = ["GET /health", "GET /orders/1", "GET /_demo/nothing", "GET /_demo/redirect?status=302&to=/",
                        "POST /_demo/expire-tokens", "GET /_demo/stats"]
        for request in requests {
            client.send("\(request) HTTP/1.1\nHost: x\n\n".crlf)
            let response = try client.readResponse()
            if response.status == 204 {
                // RFC 9110 §8.6 forbids Content-Length on 204.
                XCTAssertNil(response.headers["content-length"], request)
            } else {
                XCTAssertEqual(response.headers["content-length"], String(response.body.count), request)
            }
            XCTAssertNotNil(response.headers["date"], request)
        }
    }
}
