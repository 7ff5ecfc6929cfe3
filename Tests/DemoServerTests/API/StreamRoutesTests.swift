import XCTest
@testable import DemoServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The streamed routes on the wire: server-sent events and JSON lines, chunked, one chunk per
/// element, read as exact bytes over a raw connection.
final class StreamRoutesTests: ServerTestCase {
    private var token = ""

    override func setUp() async throws {
        try await super.setUp()
        token = try await login().token
    }

    /// `GET target` with the token and `headers`, as it goes on the wire.
    private func get(_ target: String, _ headers: [String] = [], method: String = "GET", version: String = "HTTP/1.1") -> String {
        "\(method) \(target) \(version)\nHost: x\nAuthorization: Bearer \(token)\n\(headers.map { "\($0)\n" }.joined())\n".crlf
    }

    /// A new review with `photos` photos; the review's id.
    private func makeReview(photos: Int) async throws -> Int {
        let review = try await postJSON("/facilities/1/reviews", ["content": "streams", "rating": 4], token: token)
        let id = try XCTUnwrap(review.object["id"] as? Int)
        for index in 0..<photos {
            var body = MultipartBody()
            body.addFile(filename: "p\(index).jpg", data: testBytes(count: 100, seed: UInt64(index)))
            let upload = try await send("POST", "/reviews/\(id)/photos", headers: ["Content-Type": body.contentType],
                                        body: body.closed, token: token)
            XCTAssertEqual(upload.status, 201)
        }
        return id
    }

    /// The events `GET /reviews/:id/photos/states` sends for photos 1 and 2, each as its chunk.
    private let twoPhotoEvents = [
        "event: state\nid: 1\ndata: {\"photo_id\":1,\"state\":\"queued\",\"progress\":0}\n\n",
        "event: state\nid: 2\ndata: {\"photo_id\":1,\"state\":\"processing\",\"progress\":50}\n\n",
        "event: state\nid: 3\ndata: {\"photo_id\":1,\"state\":\"ready\",\"progress\":100}\n\n",
        "event: state\nid: 4\ndata: {\"photo_id\":2,\"state\":\"queued\",\"progress\":0}\n\n",
        "event: state\nid: 5\ndata: {\"photo_id\":2,\"state\":\"processing\",\"progress\":50}\n\n",
        "event: state\nid: 6\ndata: {\"photo_id\":2,\"state\":\"ready\",\"progress\":100}\n\n",
        "event: done\nid: 7\ndata: {\"photos\":2}\n\n",
    ]

    func test_photoStates_sendsRetryThenEachPhotosStatesThenDone_oneChunkEach_andKeepsTheConnection() async throws {
        let review = try await makeReview(photos: 2)
        let client = try rawClient()
        client.send(get("/reviews/\(review)/photos/states"))

        let (status, headers) = try client.readHead()
        XCTAssertEqual(status, 200)
        XCTAssertEqual(headers["content-type"], "text/event-stream")
        XCTAssertEqual(headers["cache-control"], "no-store")
        XCTAssertEqual(headers["transfer-encoding"], "chunked")
        XCTAssertNil(headers["content-length"])
        let chunks = try client.readChunks().map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(chunks, ["retry: 1000\n\n"] + twoPhotoEvents)

        // The body ended properly, so the connection serves the next request.
        client.send(get("/health"))
        XCTAssertEqual(try client.readResponse().status, 200)
    }

    func test_lastEventID_resumesAfterThatEvent_withTheSameEvents() async throws {
        let review = try await makeReview(photos: 2)
        let client = try rawClient()
        client.send(get("/reviews/\(review)/photos/states", ["Last-Event-ID: 4"]))

        XCTAssertEqual(try client.readHead().status, 200)
        let chunks = try client.readChunks().map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(chunks, ["retry: 1000\n\n"] + twoPhotoEvents[4...])
    }

    func test_reviewWithoutPhotos_sendsOnlyDone_afterTheRetryTheQueryAsksFor() async throws {
        let review = try await makeReview(photos: 0)
        let client = try rawClient()
        client.send(get("/reviews/\(review)/photos/states?retry=250"))

        XCTAssertEqual(try client.readHead().status, 200)
        let chunks = try client.readChunks().map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(chunks, ["retry: 250\n\n", "event: done\nid: 1\ndata: {\"photos\":0}\n\n"])
    }

    func test_photoStates_needsTheToken_andAnExistingReview() async throws {
        let unknown = try await send("GET", "/reviews/99/photos/states", token: token)
        XCTAssertEqual(unknown.status, 404)
        XCTAssertEqual(unknown.message, "not_found")
        let anonymous = try await send("GET", "/reviews/99/photos/states")
        XCTAssertEqual(anonymous.status, 401)
        let ordersAnonymous = try await send("GET", "/orders.ndjson")
        XCTAssertEqual(ordersAnonymous.status, 401)
    }

    func test_ordersNDJSON_sendsEachOrderAsTheOrderRouteDoes_oneLineEach() async throws {
        var expected: [String] = []
        for id in 1...8 { expected.append(try await send("GET", "/orders/\(id)", token: token).text + "\n") }
        let client = try rawClient()
        client.send(get("/orders.ndjson"))

        let (status, headers) = try client.readHead()
        XCTAssertEqual(status, 200)
        XCTAssertEqual(headers["content-type"], "application/x-ndjson")
        XCTAssertEqual(try client.readChunks().map { String(decoding: $0, as: UTF8.self) }, expected)
    }

    func test_demoEvents_sendsCountEventsNumberedFromOne_eachDataOfSizeBytes() throws {
        let client = try rawClient()
        client.send(get("/_demo/events?count=5&size=100"))

        XCTAssertEqual(try client.readHead().headers["content-type"], "text/event-stream")
        let events = eventBlocks(try client.readChunks().flatMap { $0 })
        XCTAssertEqual(events.map { $0["id"] }, ["1", "2", "3", "4", "5"])
        XCTAssertEqual(events.map { $0["data"]?.utf8.count }, [100, 100, 100, 100, 100])
        XCTAssertEqual(events.map { jsonObject($0["data"] ?? "")["i"] as? Int }, [1, 2, 3, 4, 5])
    }

    func test_demoLines_sendsCountJSONLinesOfSizeBytes() throws {
        let client = try rawClient()
        client.send(get("/_demo/lines?count=3&size=50"))

        XCTAssertEqual(try client.readHead().headers["content-type"], "application/x-ndjson")
        let lines = try client.readChunks().map { String(decoding: $0, as: UTF8.self) }
        XCTAssertEqual(lines.map(\.utf8.count), [51, 51, 51])
        XCTAssertEqual(lines.map { $0.last }, ["\n", "\n", "\n"])
        XCTAssertEqual(lines.map { jsonObject($0)["i"] as? Int }, [1, 2, 3])
    }

    func test_huge_makesOnlyTheSecondElementThatLong() throws {
        let client = try rawClient()
        client.send(get("/_demo/events?count=3&size=30&huge=200000"))
        XCTAssertEqual(try client.readHead().status, 200)
        let events = eventBlocks(try client.readChunks().flatMap { $0 })
        XCTAssertEqual(events.map { $0["data"]?.utf8.count }, [30, 200_000, 30])

        client.send(get("/_demo/lines?count=3&size=30&huge=70000"))
        XCTAssertEqual(try client.readHead().status, 200)
        XCTAssertEqual(try client.readChunks().map(\.count), [31, 70_001, 31])
    }

    func test_badParameters_answer400SayingWhatIsWrong() async throws {
        let cases: [(path: String, headers: [String: String], message: String)] = [
            ("/_demo/events?count=10000001", [:], "count must be an integer from 0 to 10000000"),
            ("/_demo/lines?count=-1", [:], "count must be an integer from 0 to 10000000"),
            ("/_demo/lines?size=1048577", [:], "size must be an integer from 0 to 1048576"),
            ("/_demo/events?huge=big", [:], "huge must be an integer from 0 to 268435456"),
            ("/_demo/events?count=1&huge=100", [:], "huge sizes the second element: count must be 2 or more"),
            ("/reviews/1/photos/states?retry=soon", [:], "retry must be an integer from 0 to 3600000"),
            ("/reviews/1/photos/states", ["Last-Event-ID": "abc"],
             "Last-Event-ID must be the id of an event of this stream, a non-negative integer"),
        ]
        _ = try await makeReview(photos: 0)
        for (path, headers, message) in cases {
            let reply = try await send("GET", path, headers: headers, token: token)
            XCTAssertEqual(reply.status, 400, path)
            XCTAssertEqual(reply.message, message, path)
        }
    }

    func test_head_sendsTheStreamsHeadAndNoBody() throws {
        let client = try rawClient()
        client.send(get("/_demo/events?count=3", method: "HEAD") + get("/health"))

        let (status, headers) = try client.readHead()
        XCTAssertEqual(status, 200)
        XCTAssertEqual(headers["transfer-encoding"], "chunked")
        // Had the HEAD response carried a body, this would read its bytes as a status line.
        XCTAssertEqual(try client.readResponse().text, #"{"status":"ok"}"#)
    }

    func test_http10_getsTheElementsBare_untilTheConnectionCloses() throws {
        let client = try rawClient()
        client.send(get("/_demo/lines?count=3&size=20", version: "HTTP/1.0"))

        let (status, headers) = try client.readHead()
        XCTAssertEqual(status, 200)
        XCTAssertNil(headers["transfer-encoding"])
        XCTAssertNil(headers["content-length"])
        XCTAssertEqual(headers["connection"], "close")
        let (closed, body) = client.readUntilClosed()
        XCTAssertTrue(closed)
        XCTAssertEqual(String(decoding: body, as: UTF8.self), (1...3).map { #"{"i":\#($0),"pad":"xxxx"}"# + "\n" }.joined())
    }

    func test_aRequestSentDuringADrippingStream_isAnsweredAfterIt() throws {
        let client = try rawClient()
        client.send(get("/_demo/events?count=3", ["X-Demo-Fault: drip=100ms"]))
        XCTAssertEqual(try client.readHead().status, 200)
        XCTAssertNotNil(try client.readChunk())

        // Arrives while the server waits between events: kept for after the stream.
        client.send(get("/health"))
        XCTAssertEqual(try client.readChunks().count, 2)
        XCTAssertEqual(try client.readResponse().text, #"{"status":"ok"}"#)
    }

    func test_stats_countStreamsStarted_andTheirElements() async throws {
        let client = try rawClient()
        client.send(get("/_demo/lines?count=4"))
        XCTAssertEqual(try client.readHead().status, 200)
        XCTAssertEqual(try client.readChunks().count, 4)
        client.send(get("/reviews/1/photos/states"))  // 404: no stream
        XCTAssertEqual(try client.readResponse().status, 404)
        client.send(get("/_demo/events?count=0"))
        XCTAssertEqual(try client.readHead().status, 200)
        XCTAssertEqual(try client.readChunks().count, 0)

        let stats = try await stats()
        XCTAssertEqual(stats["streams_started"] as? Int, 2)
        XCTAssertEqual(stats["stream_elements_sent"] as? Int, 4)
    }

    func test_statusAndContentTypeFaults_answerAWholeResponseInsteadOfAStream() throws {
        let client = try rawClient()
        client.send(get("/_demo/events?count=3", ["X-Demo-Fault: status=500"]))
        let failed = try client.readResponse()
        XCTAssertEqual(failed.status, 500)
        XCTAssertEqual(failed.message, "injected")
        XCTAssertNil(failed.headers["transfer-encoding"])

        client.send(get("/orders.ndjson", ["X-Demo-Fault: content-type=text/html"]))
        let page = try client.readResponse()
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.headers["content-type"], "text/html")
        XCTAssertEqual(page.headers["content-length"], String(page.body.count))
        XCTAssertTrue(page.text.hasPrefix("<html>"), page.text)
    }
}
