import BatonOpenSSL
import XCTest
@testable import DemoServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `Idempotency-Key` on `POST /facilities/:id/reviews`, `POST /reviews/:id/photos` and
/// `PUT /photos/:id`: a retry gets the first response again, and the work is done once.
final class IdempotencyKeyTests: ServerTestCase {
    private var token = ""
    private let image = testBytes(count: 2000, seed: 51)

    override func setUp() async throws {
        try await super.setUp()
        token = try await login().token
    }

    private func review(_ object: Any, key: String?, path: String = "/facilities/1/reviews", fault: String? = nil) async throws -> Reply {
        var headers = ["Content-Type": "application/json"]
        headers["Idempotency-Key"] = key
        headers["X-Demo-Fault"] = fault
        return try await send("POST", path, headers: headers, body: try JSONSerialization.data(withJSONObject: object), token: token)
    }

    /// A review to hang photos on, made without a key.
    private func makeReview() async throws {
        let made = try await review(["content": "for photos", "rating": 5], key: nil)
        XCTAssertEqual(made.status, 201)
    }

    func test_aRepeatedReview_isStoredOnce_andTheRetryGetsTheFirstAnswer_markedReplayed() async throws {
        let first = try await review(["content": "二度目は同じ", "rating": 4], key: "review-1")
        let retry = try await review(["rating": 4, "content": "二度目は同じ"], key: "review-1")
        XCTAssertEqual(first.status, 201)
        XCTAssertNil(first.headers["idempotent-replayed"])
        XCTAssertEqual(retry.status, 201)
        XCTAssertEqual(retry.text, first.text)
        XCTAssertEqual(retry.headers["location"], "/reviews/1")
        XCTAssertEqual(retry.headers["idempotent-replayed"], "true")
        let second = try await send("GET", "/reviews/2", token: token)
        XCTAssertEqual(second.status, 404, "one review stored")
        let stats = try await stats()
        XCTAssertEqual(stats["idempotent_replays"] as? Int, 1)
    }

    func test_theSameReview_asAFormInsteadOfJSON_isTheSameRequest() async throws {
        let first = try await review(["content": "a & b", "rating": 3], key: "form-or-json")
        let retry = try await postForm("/facilities/1/reviews", [("rating", "3"), ("content", "a & b")], token: token,
                                       headers: ["Idempotency-Key": "form-or-json"])
        XCTAssertEqual(retry.status, 201)
        XCTAssertEqual(retry.text, first.text)
        XCTAssertEqual(retry.headers["idempotent-replayed"], "true")
    }

    func test_aRepeatedPhoto_isStoredOnce_evenWithAnotherBoundary() async throws {
        try await makeReview()
        let first = try await uploadPhoto(image, caption: "夜景", headers: ["Idempotency-Key": "\"photo-1\""], token: token)
        let retry = try await uploadPhoto(image, caption: "夜景", boundary: "another-boundary", headers: ["Idempotency-Key": "photo-1"],
                                          token: token)
        XCTAssertEqual(first.status, 201)
        XCTAssertEqual(retry.status, 201)
        XCTAssertEqual(retry.text, first.text)
        XCTAssertEqual(retry.headers["location"], "/photos/1")
        XCTAssertEqual(retry.headers["idempotent-replayed"], "true")
        let stats = try await stats()
        XCTAssertEqual(stats["photos_stored"] as? Int, 1)
        let review = try await send("GET", "/reviews/1", token: token)
        XCTAssertEqual(review.object["photos"] as? [String], ["/photos/1"])
    }

    func test_theSameKey_withAnotherRequest_answers422_andDoesNothing() async throws {
        try await makeReview()
        _ = try await review(["content": "first", "rating": 4], key: "reused")
        let other = try await review(["content": "second", "rating": 4], key: "reused")
        XCTAssertEqual(other.status, 422)
        XCTAssertEqual(other.message, "Idempotency-Key \"reused\" was used with another request; a different request needs a new key")
        let otherFacility = try await review(["content": "first", "rating": 4], key: "reused", path: "/facilities/2/reviews")
        XCTAssertEqual(otherFacility.status, 422)
        let photo = try await uploadPhoto(image, headers: ["Idempotency-Key": "reused"], token: token)
        XCTAssertEqual(photo.status, 422, "another route is another request")
        let captioned = try await uploadPhoto(image, caption: "a", headers: ["Idempotency-Key": "photo"], token: token)
        XCTAssertEqual(captioned.status, 201)
        let recaptioned = try await uploadPhoto(image, caption: "b", headers: ["Idempotency-Key": "photo"], token: token)
        XCTAssertEqual(recaptioned.status, 422, "another caption")
        let stats = try await stats()
        XCTAssertEqual(stats["photos_stored"] as? Int, 1)
        let third = try await send("GET", "/reviews/3", token: token)
        XCTAssertEqual(third.status, 404)
    }

    func test_aRefusedRequest_isRemembered_too() async throws {
        let refused = try await review(["content": "x", "rating": 6], key: "bad-rating")
        XCTAssertEqual(refused.status, 422)
        let again = try await review(["content": "x", "rating": 6], key: "bad-rating")
        XCTAssertEqual(again.status, 422)
        XCTAssertEqual(again.message, "rating must be between 1 and 5")
        XCTAssertEqual(again.headers["idempotent-replayed"], "true")
        let fixed = try await review(["content": "x", "rating": 5], key: "bad-rating")
        XCTAssertEqual(fixed.status, 422, "the key was spent on the refused request")
        XCTAssertEqual(fixed.message, "Idempotency-Key \"bad-rating\" was used with another request; a different request needs a new key")
    }

    /// Two requests with one key, held together at a barrier: the one that took the key first is
    /// handled, the other is refused 409 while the first still holds it (which of the two comes
    /// first is up to the server's threads; that one of each comes is not).
    func test_theSameKey_whileTheFirstIsStillHandled_answers409() throws {
        let body = Array(#"{"content":"at once","rating":2}"#.utf8)
        let fields = ["Content-Type: application/json", "Idempotency-Key: together", "X-Demo-Fault: barrier=2"]
        let clients = try (0..<2).map { _ in try rawClient() }
        for client in clients {
            client.send(Array(("POST /facilities/1/reviews HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                + fields.joined(separator: "\r\n") + "\r\nContent-Length: \(body.count)\r\n\r\n").utf8) + body)
        }
        let answers = try clients.map { try $0.readResponse() }
        XCTAssertEqual(answers.map(\.status).sorted(), [201, 409])
        let refused = try XCTUnwrap(answers.first { $0.status == 409 })
        XCTAssertEqual(refused.message, "Idempotency-Key is in use by a request that is still being handled; send this one again once that one has been answered")
        let retry = try clients[0].request("POST", "/facilities/1/reviews", token: token,
                                           fields: ["Content-Type: application/json", "Idempotency-Key: together"], body: body)
        XCTAssertEqual(retry.status, 201)
        XCTAssertEqual(retry.headers["idempotent-replayed"], "true", "the 409 was not remembered; the 201 was")
        XCTAssertEqual(try clients[0].request("GET", "/reviews/2", token: token).status, 404)
    }

    func test_aMalformedKey_answers400_andAValidOne_isTaken() throws {
        let client = try rawClient()
        let body = Array(#"{"content":"k","rating":1}"#.utf8)
        func post(_ keyLines: [String]) throws -> RawClient.Response {
            try client.request("POST", "/facilities/1/reviews", token: token,
                               fields: ["Content-Type: application/json"] + keyLines, body: body)
        }
        let malformed = ["", "\"\"", "\"a b\"", "\"unterminated", "\"a\"b", "a,b", "\"a\";p=1", "a b", "\"\\x\"",
                         "\"キー\"", String(repeating: "k", count: 256), "\"\(String(repeating: "k", count: 256))\""]
        for key in malformed {
            let reply = try post(["Idempotency-Key: \(key)"])
            XCTAssertEqual(reply.status, 400, "Idempotency-Key: \(key)")
            XCTAssertEqual(reply.message, "Idempotency-Key must be a quoted string or a token of 1 to 255 visible ASCII characters")
        }
        XCTAssertEqual(try post(["Idempotency-Key: a", "Idempotency-Key: a"]).status, 400, "one key, one line")
        let valid = ["\"abc\"", "8e03978e-40d5-43e8-bc93-6894a57f9324", String(repeating: "k", count: 255), "\"q\\\"uo\\\\te\"",
                     "\"!#$%&'()*+,-./:;<=>?@[]^_`{|}~\"", "a:b/c"]
        for key in valid {
            XCTAssertEqual(try post(["Idempotency-Key: \(key)"]).status, 201, "Idempotency-Key: \(key)")
        }
    }

    func test_aQuotedKey_andTheSameBareToken_areOneKey() async throws {
        let first = try await review(["content": "q", "rating": 1], key: "\"same\"")
        let retry = try await review(["content": "q", "rating": 1], key: "same")
        XCTAssertEqual(first.status, 201)
        XCTAssertEqual(retry.headers["idempotent-replayed"], "true")
    }

    /// The scenario the key exists for: the response is lost on the way, the client sends the
    /// request again, and one photo is stored.
    func test_anAnswerCutOnTheWay_isReplayedToTheRetry_withOnePhotoStored() async throws {
        try await makeReview()
        let upload = photoUploadBody(image)
        func attempt(_ client: RawClient) {
            client.send(Array(("POST /reviews/1/photos HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\n"
                + "Content-Type: \(upload.contentType)\r\nIdempotency-Key: cut-once\r\n"
                + "X-Demo-Fault: drop-after=200;times=1\r\nContent-Length: \(upload.closed.count)\r\n\r\n").utf8) + Array(upload.closed))
        }
        let cut = try rawClient()
        attempt(cut)
        let (closed, bytes) = cut.readUntilClosed()
        XCTAssertTrue(closed)
        XCTAssertEqual(bytes.count, 200)
        XCTAssertTrue(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 201 Created"))

        let retry = try rawClient()
        attempt(retry)
        let answer = try retry.readResponse()
        XCTAssertEqual(answer.status, 201)
        XCTAssertEqual(answer.headers["idempotent-replayed"], "true")
        XCTAssertEqual(answer.headers["location"], "/photos/1")
        XCTAssertEqual(jsonObject(answer.text)["sha256"] as? String, SHA256.hexDigest(of: image))
        let stats = try await stats()
        XCTAssertEqual(stats["photos_stored"] as? Int, 1)
        XCTAssertEqual(stats["idempotent_replays"] as? Int, 1)
    }

    func test_anInjected503_comesBeforeTheKey_andRemembersNothing() async throws {
        let injected = try await review(["content": "after 503", "rating": 3], key: "retry-after-503", fault: "status=503;times=1")
        XCTAssertEqual(injected.status, 503)
        let retry = try await review(["content": "after 503", "rating": 3], key: "retry-after-503", fault: "status=503;times=1")
        XCTAssertEqual(retry.status, 201)
        XCTAssertNil(retry.headers["idempotent-replayed"], "handled, not replayed: the 503 was not remembered")
        let replay = try await review(["content": "after 503", "rating": 3], key: "retry-after-503")
        XCTAssertEqual(replay.headers["idempotent-replayed"], "true")
    }

    func test_aRepeatedPut_isReplayed_andLastModifiedMovesOnce() async throws {
        try await makeReview()
        _ = try await uploadPhoto(image, token: token)
        let newBytes = testBytes(count: 300, seed: 52)
        func put() async throws -> Reply {
            try await send("PUT", "/photos/1", headers: ["Content-Type": "image/png", "Idempotency-Key": "put-1"],
                           body: Data(newBytes), token: token)
        }
        let first = try await put()
        let afterFirst = try await send("HEAD", "/photos/1", token: token)
        let retry = try await put()
        let afterRetry = try await send("HEAD", "/photos/1", token: token)
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(retry.status, 200)
        XCTAssertEqual(retry.text, first.text)
        XCTAssertEqual(retry.headers["idempotent-replayed"], "true")
        XCTAssertEqual(afterRetry.headers["last-modified"], afterFirst.headers["last-modified"], "the replacement was not made again")
    }

    func test_reset_forgetsEveryKey() async throws {
        _ = try await review(["content": "before reset", "rating": 2], key: "across-reset")
        _ = try await send("POST", "/_demo/reset")
        token = try await login().token
        let after = try await review(["content": "after reset", "rating": 2], key: "across-reset")
        XCTAssertEqual(after.status, 201)
        XCTAssertNil(after.headers["idempotent-replayed"])
        XCTAssertEqual(after.object["content"] as? String, "after reset")
    }

    func test_withoutAKey_everyRequestIsHandled() async throws {
        let first = try await review(["content": "no key", "rating": 1], key: nil)
        let second = try await review(["content": "no key", "rating": 1], key: nil)
        XCTAssertEqual(first.object["id"] as? Int, 1)
        XCTAssertEqual(second.object["id"] as? Int, 2)
        XCTAssertNil(second.headers["idempotent-replayed"])
    }
}
