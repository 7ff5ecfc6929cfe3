import XCTest
@testable import DemoServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `X-Demo-Fault`: failures on demand, applied before authentication and routing.
final class FaultTests: ServerTestCase {
    private func faulted(_ value: String, _ path: String = "/health", token: String? = nil) async throws -> Reply {
        try await send("GET", path, headers: ["X-Demo-Fault": value], token: token)
    }

    func test_status_answersThatStatusWithInjectedMessageAndRetryAfter() async throws {
        let reply = try await faulted("status=503; retry-after=1")
        XCTAssertEqual(reply.status, 503)
        XCTAssertEqual(reply.text, #"{"message":"injected"}"#)
        XCTAssertEqual(reply.headers["retry-after"], "1")
        XCTAssertEqual(reply.headers["content-type"], "application/json; charset=utf-8")
    }

    func test_status_appliesBeforeAuthenticationAndRouting() async throws {
        let protected = try await faulted("status=500", "/orders/1")
        XCTAssertEqual(protected.status, 500)
        let unknown = try await faulted("status=429", "/nowhere")
        XCTAssertEqual(unknown.status, 429)
    }

    func test_times_appliesOnlyToTheFirstKRequestsWithThatValue() async throws {
        var statuses: [Int] = []
        for _ in 0..<4 { statuses.append(try await faulted("status=503;times=2").status) }
        XCTAssertEqual(statuses, [503, 503, 200, 200])
        // Another value has its own count.
        let other = try await faulted("status=502;times=1")
        XCTAssertEqual(other.status, 502)
    }

    func test_reset_restartsTheTimesCounters() async throws {
        _ = try await faulted("status=503;times=1")
        let spent = try await faulted("status=503;times=1")
        XCTAssertEqual(spent.status, 200)
        _ = try await send("POST", "/_demo/reset")
        let again = try await faulted("status=503;times=1")
        XCTAssertEqual(again.status, 503)
    }

    func test_delay_waitsBeforeAnswering() async throws {
        let start = ContinuousClock.now
        let reply = try await faulted("delay=300ms")
        XCTAssertEqual(reply.status, 200)
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(300))
    }

    func test_delayWithStatus_waitsThenAnswersTheStatus() async throws {
        let start = ContinuousClock.now
        let reply = try await faulted("delay=200ms;status=504")
        XCTAssertEqual(reply.status, 504)
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - start, .milliseconds(200))
    }

    func test_drop_closesTheConnectionWithoutAnyByte() throws {
        let client = try rawClient()
        client.send("GET /health HTTP/1.1\nHost: x\nX-Demo-Fault: drop\n\n".crlf)
        let (closed, bytes) = client.readUntilClosed()
        XCTAssertTrue(closed)
        XCTAssertEqual(bytes, [])
    }

    func test_drop_failsTheURLSessionRequest() async throws {
        do {
            let reply = try await faulted("drop")
            XCTFail("expected a network error, got \(reply.status)")
        } catch {
            XCTAssertTrue(error is URLError, "\(error)")
        }
    }

    func test_dropAfter_sendsExactlyTheFirstNBytesThenCloses() throws {
        let client = try rawClient()
        client.send("GET /health HTTP/1.1\nHost: x\nX-Demo-Fault: drop-after=12\n\n".crlf)
        let (closed, bytes) = client.readUntilClosed()
        XCTAssertTrue(closed)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "HTTP/1.1 200")
    }

    func test_garbageBody_answers200WithNonJSONBodyTypedAsJSON() async throws {
        let reply = try await faulted("body=garbage")
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.headers["content-type"], "application/json; charset=utf-8")
        XCTAssertFalse(reply.body.isEmpty)
        XCTAssertNil(reply.json)
    }

    func test_bodyBytes_answers200WithAJSONBodyOfExactlyThatSize() async throws {
        let reply = try await faulted("body-bytes=100000")
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.headers["content-type"], "application/json; charset=utf-8")
        XCTAssertEqual(reply.body.count, 100_000)
        XCTAssertEqual((try JSONSerialization.jsonObject(with: reply.body, options: .fragmentsAllowed) as? String)?.count, 99_998)
    }

    /// URLSession inflates the body, checking gzip's CRC and length: what arrives is the response
    /// as it would have been, here a route's JSON with multi-byte UTF-8 in it.
    func test_gzip_sendsTheAnswerCompressed_asURLSessionReadsIt() async throws {
        let token = try await login().token
        let plain = try await send("GET", "/orders/1", token: token)
        let compressed = try await faulted("gzip", "/orders/1", token: token)
        XCTAssertEqual(compressed.status, 200)
        XCTAssertEqual(compressed.body, plain.body)
        XCTAssertTrue(String(decoding: plain.body, as: UTF8.self).unicodeScalars.contains { $0.value > 0x7f })
    }

    /// A long run squeezes to a fraction of itself on the wire (a "gzip bomb"), and still inflates
    /// to every byte.
    func test_gzipWithBodyBytes_isSmallOnTheWire_andInflatesWhole() async throws {
        let wire = Gzip.compress(DemoAPI.paddedBody(4 << 20))
        XCTAssertLessThan(wire.count, (4 << 20) / 100)
        let reply = try await faulted("gzip;body-bytes=4194304")
        XCTAssertEqual(reply.body.count, 4 << 20)
        XCTAssertEqual(reply.body.first, UInt8(ascii: "\""))
        XCTAssertEqual(reply.body.last, UInt8(ascii: "\""))
    }

    func test_contentType_handlesNormallyButAnswersWithThatType() async throws {
        let token = try await login().token
        let reply = try await faulted("content-type=text/html", "/orders/1", token: token)
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.headers["content-type"], "text/html")
        XCTAssertEqual(reply.object["id"] as? Int, 1)
    }

    func test_badValues_answer400() async throws {
        for value in ["status=abc", "status=700", "status=199", "delay=fast", "delay=5", "delay=-1s", "drop-after=x",
                      "body=json", "times=-1", "drop=yes", "retry-after=soon", "content-type=",
                      "body-bytes=-1", "body-bytes=268435457", "gzip=yes",
                      "stall-after=-1", "stall-after=x", "barrier=0", "barrier=100001"] {
            let reply = try await faulted(value)
            XCTAssertEqual(reply.status, 400, value)
            XCTAssertTrue(reply.message?.hasPrefix("X-Demo-Fault has a bad value for") == true, value)
        }
    }

    func test_unknownKeys_areIgnored() async throws {
        let reply = try await faulted("flavour=strawberry;;")
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.text, #"{"status":"ok"}"#)
    }

    func test_faultedRequests_areCountedInStats() async throws {
        _ = try await faulted("status=503")
        _ = try await faulted("status=503")
        let stats = try await stats()
        XCTAssertEqual(stats["requests"] as? [String: Int], ["GET /health": 2])
    }
}

/// The fault header parser on its own.
final class FaultParsingTests: XCTestCase {
    func test_parse_readsEveryKnownKey() throws {
        let fault = try Fault.parse(
            "status=503; retry-after=2; delay=250ms; drop-after=10; body=garbage; content-type=text/html; times=3; drop; body-bytes=7; gzip;"
                + " stall-after=20; barrier=4"
        )
        var expected = Fault()
        expected.status = 503
        expected.retryAfter = 2
        expected.delay = .milliseconds(250)
        expected.dropAfter = 10
        expected.garbageBody = true
        expected.contentType = "text/html"
        expected.times = 3
        expected.drop = true
        expected.bodyBytes = 7
        expected.gzip = true
        expected.stallAfter = 20
        expected.barrier = 4
        XCTAssertEqual(fault, expected)
    }

    func test_crc32_matchesTheStandardCheckValue() {
        XCTAssertEqual(Gzip.crc32(Array("123456789".utf8)), 0xCBF4_3926)
    }

    func test_parse_readsSecondsDelays() throws {
        XCTAssertEqual(try Fault.parse("delay=5s").delay, .seconds(5))
    }
}
