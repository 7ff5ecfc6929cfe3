import BatonOpenSSL
import XCTest
@testable import DemoServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `PUT /photos/:id`: new bytes for a photo, so that a resource can change between two requests.
final class PhotoReplacementTests: ServerTestCase {
    private var token = ""
    private let original = testBytes(count: 1000, seed: 41)
    private let replacement = testBytes(count: 1500, seed: 42)

    override func makeConfiguration() -> DemoServer.Configuration {
        var configuration = super.makeConfiguration()
        configuration.maxBodyBytes = 1 << 20
        return configuration
    }

    override func setUp() async throws {
        try await super.setUp()
        token = try await login().token
        let review = try await postJSON("/facilities/1/reviews", ["content": "replaced", "rating": 2], token: token)
        XCTAssertEqual(review.status, 201)
        let photo = try await uploadPhoto(original, filename: "first.jpg", token: token)
        XCTAssertEqual(photo.status, 201)
    }

    private func put(_ bytes: [UInt8], type: String = "image/png", to id: Int = 1, token: String? = nil) async throws -> Reply {
        try await send("PUT", "/photos/\(id)", headers: ["Content-Type": type], body: Data(bytes), token: token ?? self.token)
    }

    func test_put_replacesTheBytes_andAnswersThePhotoWithItsNewSizeAndDigest() async throws {
        let reply = try await put(replacement)
        XCTAssertEqual(reply.status, 200, reply.text)
        XCTAssertEqual(reply.text, #"{"id":1,"review_id":1,"url":"/photos/1","filename":"first.jpg","bytes":1500,"sha256":"\#(SHA256.hexDigest(of: replacement))"}"#)
        let photo = try await send("GET", "/photos/1", headers: ["Want-Repr-Digest": "sha-256=1"], token: token)
        XCTAssertEqual(Array(photo.body), replacement)
        XCTAssertEqual(photo.headers["content-type"], "image/png")
        XCTAssertEqual(photo.headers["etag"], expectedPhotoETag(replacement))
        XCTAssertEqual(photo.headers["repr-digest"], expectedReprDigest(replacement))
        let review = try await send("GET", "/reviews/1", token: token)
        XCTAssertEqual(review.object["photos"] as? [String], ["/photos/1"], "the same photo, not another")
        let stats = try await stats()
        XCTAssertEqual(stats["photos_stored"] as? Int, 1)
    }

    func test_put_movesLastModifiedForward_evenWithinTheSameSecond() throws {
        let client = try rawClient()
        let before = try client.request("GET", "/photos/1", token: token)
        let first = try client.request("PUT", "/photos/1", token: token, fields: ["Content-Type: image/jpeg"], body: replacement)
        XCTAssertEqual(first.status, 200)
        let afterFirst = try client.request("GET", "/photos/1", token: token)
        _ = try client.request("PUT", "/photos/1", token: token, fields: ["Content-Type: image/jpeg"], body: original)
        let afterSecond = try client.request("GET", "/photos/1", token: token)
        let dates = try [before, afterFirst, afterSecond].map { try XCTUnwrap($0.headers["last-modified"].flatMap(TestHTTPDate.date)) }
        XCTAssertLessThan(dates[0], dates[1])
        XCTAssertLessThan(dates[1], dates[2])
        XCTAssertEqual(afterSecond.headers["etag"], before.headers["etag"], "the same bytes, the same tag")
    }

    func test_afterAPut_theOldValidators_noLongerMatch() async throws {
        let client = try rawClient()
        let before = try client.request("GET", "/photos/1", token: token)
        let replaced = try await put(replacement)
        XCTAssertEqual(replaced.status, 200)
        let oldTag = before.headers["etag"]!
        let notModified = try client.request("GET", "/photos/1", token: token, fields: ["If-None-Match: \(oldTag)"])
        XCTAssertEqual(notModified.status, 200)
        XCTAssertEqual(notModified.body, replacement)
        for condition in [oldTag, before.headers["last-modified"]!] {
            let resumed = try client.request("GET", "/photos/1", token: token, fields: ["Range: bytes=500-", "If-Range: \(condition)"])
            XCTAssertEqual(resumed.status, 200, "a resumed download of the old photo gets the new one whole (If-Range: \(condition))")
            XCTAssertEqual(resumed.body, replacement)
        }
    }

    func test_put_ofAnotherType_answers415_andChangesNothing() async throws {
        for type in ["text/plain", "image/gif", "multipart/form-data; boundary=x"] {
            let reply = try await put(replacement, type: type)
            XCTAssertEqual(reply.status, 415, type)
            XCTAssertEqual(reply.message, "body must be image/jpeg or image/png", type)
        }
        let photo = try await send("GET", "/photos/1", token: token)
        XCTAssertEqual(Array(photo.body), original)
    }

    func test_put_toAnUnknownPhoto_answers404() async throws {
        let reply = try await put(replacement, to: 2)
        XCTAssertEqual(reply.status, 404)
        XCTAssertEqual(reply.message, "not_found")
    }

    func test_put_withoutAToken_answers401() async throws {
        let reply = try await send("PUT", "/photos/1", headers: ["Content-Type": "image/png"], body: Data(replacement))
        XCTAssertEqual(reply.status, 401)
    }

    func test_put_overTheBodyLimit_answers413() async throws {
        let reply = try await put(testBytes(count: (1 << 20) + 1))
        XCTAssertEqual(reply.status, 413)
    }

    func test_put_isCountedAsItsRoute() async throws {
        _ = try await put(replacement)
        let stats = try await stats()
        XCTAssertEqual((stats["requests"] as? [String: Int])?["PUT /photos/:id"], 1)
    }
}
