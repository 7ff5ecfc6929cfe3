import BatonOpenSSL
import XCTest
@testable import DemoServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `/_demo/redirect`, `/_demo/echo`, `/_demo/stats`, `/_demo/reset`.
final class DemoRoutesTests: ServerTestCase {
    func test_redirect_answersStatusWithLocationAndEmptyBody() throws {
        for status in [301, 302, 303, 307, 308] {
            let client = try rawClient()
            client.send("DELETE /_demo/redirect?status=\(status)&to=%2F_demo%2Fecho%3Fa%3D1 HTTP/1.1\nHost: x\n\n".crlf)
            let response = try client.readResponse()
            XCTAssertEqual(response.status, status)
            XCTAssertEqual(response.headers["location"], "/_demo/echo?a=1")
            XCTAssertEqual(response.headers["content-length"], "0")
            XCTAssertEqual(response.body, [])
        }
    }

    func test_redirect303_isFollowedByURLSessionAsGet() async throws {
        let reply = try await send("POST", "/_demo/redirect?status=303&to=/_demo/echo",
                                   headers: ["Content-Type": "text/plain"], body: Data("payload".utf8))
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.object["method"] as? String, "GET")
        XCTAssertEqual(reply.object["path"] as? String, "/_demo/echo")
        XCTAssertEqual(reply.object["body_bytes"] as? Int, 0)
    }

    func test_redirectToAbsoluteURL_isFollowed() async throws {
        let target = server.baseURL.absoluteString + "/_demo/echo?from=redirect"
        let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let reply = try await send("GET", "/_demo/redirect?status=302&to=\(encoded)")
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.object["query"] as? String, "from=redirect")
    }

    func test_redirectWithBadStatusOrTarget_answers400() async throws {
        for query in ["status=200&to=/x", "status=abc&to=/x", "status=302", "status=302&to=%0D%0ASet-Cookie:x"] {
            let reply = try await send("GET", "/_demo/redirect?\(query)")
            XCTAssertEqual(reply.status, 400, query)
        }
    }

    func test_echo_reportsMethodPathQueryHeadersAndBodyDigest() async throws {
        let body = Data("hello echo".utf8)
        let reply = try await send("PUT", "/_demo/echo?x=1&y=%E5%B1%B1",
                                   headers: ["X-Custom": "Value", "Content-Type": "text/plain"], body: body)
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.object["method"] as? String, "PUT")
        XCTAssertEqual(reply.object["path"] as? String, "/_demo/echo")
        XCTAssertEqual(reply.object["query"] as? String, "x=1&y=%E5%B1%B1")
        let headers = try XCTUnwrap(reply.object["headers"] as? [String: String])
        XCTAssertEqual(headers["x-custom"], "Value")
        XCTAssertEqual(headers["content-type"], "text/plain")
        XCTAssertEqual(headers["host"], "127.0.0.1:\(server.port)")
        XCTAssertEqual(reply.object["body_bytes"] as? Int, 10)
        XCTAssertEqual(reply.object["body_sha256"] as? String, SHA256.hexDigest(of: Array(body)))
    }

    func test_echo_joinsRepeatedHeaderFields() throws {
        let client = try rawClient()
        client.send("GET /_demo/echo HTTP/1.1\nHost: x\nX-A: 1\nx-a: 2\n\n".crlf)
        let response = try client.readResponse()
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        XCTAssertEqual((object["headers"] as? [String: String])?["x-a"], "1, 2")
        XCTAssertEqual(object["body_sha256"] as? String, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    func test_stats_countsRoutesByMethodAndPatternInTheDocumentedShape() async throws {
        let token = try await login().token
        for id in [1, 2, 3] { _ = try await send("GET", "/orders/\(id)", token: token) }
        _ = try await send("GET", "/health")
        _ = try await send("GET", "/orders/1")  // 401, still a request to the route
        let reply = try await send("GET", "/_demo/stats")
        // What the responses so far came to on the wire: their heads carry the time, so only its presence is fixed.
        let bytesSent = try XCTUnwrap(reply.object["bytes_sent"] as? Int)
        XCTAssertGreaterThan(bytesSent, 0)
        XCTAssertEqual(reply.text, #"{"requests":{"GET /health":1,"GET /orders/:id":4,"POST /tokens":1},"logins":1,"#
            + #""token_refreshes":0,"refresh_tokens_rejected":0,"code_exchanges":0,"client_credentials_grants":0,"device_authorizations":0,"#
            + #""device_polls":0,"tokens_revoked":0,"photos_stored":0,"malformed":0,"connections_accepted":1,"tls_handshakes":0,"tls_server_names":{},"streams_started":0,"stream_elements_sent":0,"#
            + #""bytes_sent":\#(bytesSent),"not_modified":0,"partial_responses":0,"idempotent_replays":0}"#)
    }

    /// Whole, streamed and cut responses, each read entirely by a raw client before the next
    /// request: the server's count grows by exactly what the clients received.
    func test_bytesSent_isEveryByteClientsReceived_ofWholeStreamedAndCutAnswers() throws {
        let client = try rawClient()
        func sentSoFar() throws -> Int {
            let reply = try client.request("GET", "/_demo/stats", token: "")
            return try XCTUnwrap(jsonObject(reply.text)["bytes_sent"] as? Int)
        }
        let before = try sentSoFar()
        let start = client.bytesReceived
        XCTAssertEqual(try client.request("GET", "/health", token: "").status, 200)
        client.send("GET /_demo/lines?count=3 HTTP/1.1\nHost: x\n\n".crlf)
        XCTAssertEqual(try client.readHead().status, 200)
        XCTAssertEqual(try client.readChunks().count, 3)
        let cut = try rawClient()
        cut.send("GET /health HTTP/1.1\nHost: x\nX-Demo-Fault: drop-after=12\n\n".crlf)
        XCTAssertEqual(cut.readUntilClosed().bytes.count, 12)
        let received = client.bytesReceived - start + cut.bytesReceived
        XCTAssertEqual(try sentSoFar() - before, received, "/health, the stream and the cut answer")
    }

    /// As `requests` leaves them out, `bytes_sent` leaves out the responses of the stats route:
    /// the count read over the wire is the one the server holds after sending it.
    func test_readingTheStats_leavesBytesSentAsItWas() async throws {
        _ = try await send("GET", "/health")
        let first = try await stats()
        let second = try await stats()
        XCTAssertGreaterThan(first["bytes_sent"] as? Int ?? 0, 0)
        XCTAssertEqual(second["bytes_sent"] as? Int, first["bytes_sent"] as? Int)
        XCTAssertEqual(server.stats.bytesSent, second["bytes_sent"] as? Int)
    }

    func test_reset_restoresDemoDataAndClearsTokensReviewsAndStats() async throws {
        let token = try await login().token
        let review = try await postJSON("/facilities/1/reviews", ["content": "gone soon", "rating": 2], token: token)
        XCTAssertEqual(review.status, 201)
        let reset = try await send("POST", "/_demo/reset")
        XCTAssertEqual(reset.status, 204)
        XCTAssertEqual(reset.body.count, 0)

        let oldToken = try await send("GET", "/reviews/1", token: token)
        XCTAssertEqual(oldToken.status, 401)
        let newToken = try await login().token
        let missing = try await send("GET", "/reviews/1", token: newToken)
        XCTAssertEqual(missing.status, 404)
        let again = try await postJSON("/facilities/1/reviews", ["content": "first again", "rating": 3], token: newToken)
        XCTAssertEqual(again.object["id"] as? Int, 1)
        let stats = try await stats()
        XCTAssertEqual(stats["logins"] as? Int, 1)
        XCTAssertEqual(stats["requests"] as? [String: Int], ["POST /tokens": 1, "GET /reviews/:id": 2,
                                                             "POST /facilities/:facility_id/reviews": 1])
    }

    func test_resetAndExpireTokens_answer404ToGet() async throws {
        let reset = try await send("GET", "/_demo/reset")
        XCTAssertEqual(reset.status, 404)
        let expire = try await send("GET", "/_demo/expire-tokens")
        XCTAssertEqual(expire.status, 404)
    }
}
