import BatonOpenSSL
import XCTest
@testable import DemoServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Validators on the resource routes and conditional GET (RFC 9110 §13): `ETag`,
/// `Last-Modified`, `If-None-Match`, `If-Modified-Since` and `304 Not Modified`, over a socket.
final class ConditionalRequestTests: ServerTestCase {
    private var token = ""
    private let image = testBytes(count: 1000, seed: 21)

    override func setUp() async throws {
        try await super.setUp()
        token = try await login().token
        let review = try await postJSON("/facilities/1/reviews", ["content": "validators", "rating": 4], token: token)
        XCTAssertEqual(review.status, 201)
        uploadStarted = Date()
        let photo = try await uploadPhoto(image, token: token)
        XCTAssertEqual(photo.status, 201)
    }

    /// When the photo's upload began: its `Last-Modified` is no earlier, whole seconds aside.
    private var uploadStarted = Date.distantFuture

    /// The routes whose responses carry validators, with a JSON body (all but `/photos/1`).
    private let jsonResources = ["/order_search?name=Smith", "/orders/1", "/facilities/1", "/books/1", "/users/1", "/reviews/1"]

    func test_everyJSONResource_carriesTheFNVETagOfItsBody_andNoCache_theSameEachTime() async throws {
        for path in jsonResources {
            let first = try await send("GET", path, token: token)
            let second = try await send("GET", path, token: token)
            XCTAssertEqual(first.status, 200, path)
            XCTAssertEqual(first.headers["etag"], expectedJSONETag(first.body), path)
            XCTAssertEqual(second.headers["etag"], first.headers["etag"], path)
            XCTAssertEqual(first.headers["cache-control"], "no-cache", path)
            XCTAssertEqual(first.headers["accept-ranges"], "bytes", path)
            XCTAssertNil(first.headers["last-modified"], path)
        }
    }

    func test_theREADMEsExample_facility1_hasItsETag() async throws {
        let facility = try await send("GET", "/facilities/1", token: token)
        XCTAssertEqual(facility.headers["etag"], "\"ef5c472b3900c2e9\"")
    }

    func test_aPhoto_carriesItsSHA256AsETag_itsLastModified_andItsReprDigestWhenAsked() async throws {
        let unasked = try await send("GET", "/photos/1", token: token)
        XCTAssertNil(unasked.headers["repr-digest"], "Repr-Digest only when Want-Repr-Digest asks")
        let zero = try await send("GET", "/photos/1", headers: ["Want-Repr-Digest": "sha-256=0"], token: token)
        XCTAssertNil(zero.headers["repr-digest"], "a preference of 0 is a refusal")
        let photo = try await send("GET", "/photos/1", headers: ["Want-Repr-Digest": "sha-512=3, sha-256=10"], token: token)
        XCTAssertEqual(photo.status, 200)
        XCTAssertEqual(photo.headers["etag"], expectedPhotoETag(image))
        XCTAssertEqual(photo.headers["repr-digest"], expectedReprDigest(image))
        XCTAssertEqual(photo.headers["cache-control"], "no-cache")
        XCTAssertEqual(photo.headers["accept-ranges"], "bytes")
        let lastModified = try XCTUnwrap(photo.headers["last-modified"].flatMap(TestHTTPDate.date))
        XCTAssertGreaterThanOrEqual(lastModified, uploadStarted.addingTimeInterval(-1))
        XCTAssertLessThanOrEqual(lastModified, Date())
    }

    func test_head_carriesTheSameValidators_andTheLengthOfTheBodyItOmits() throws {
        let client = try rawClient()
        let get = try client.request("GET", "/photos/1", token: token)
        let head = try client.request("HEAD", "/photos/1", token: token)
        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.body, [])
        XCTAssertEqual(head.headers["content-length"], "1000")
        XCTAssertEqual(head.headers["etag"], get.headers["etag"])
        XCTAssertEqual(head.headers["last-modified"], get.headers["last-modified"])
    }

    func test_aReviewsETag_changesWhenItsBodyDoes() async throws {
        let before = try await send("GET", "/reviews/1", token: token)
        let second = try await uploadPhoto(testBytes(count: 10, seed: 3), token: token)
        XCTAssertEqual(second.status, 201)
        let after = try await send("GET", "/reviews/1", token: token)
        XCTAssertNotEqual(after.headers["etag"], before.headers["etag"])
        XCTAssertEqual(after.headers["etag"], expectedJSONETag(after.body))
    }

    func test_ifNoneMatch_withTheCurrentTag_inAList_asStar_orWeak_answers304WithValidatorsAndNoBody() throws {
        let client = try rawClient()
        for path in jsonResources + ["/photos/1"] {
            let etag = try XCTUnwrap(try client.request("GET", path, token: token).headers["etag"], path)
            for condition in [etag, "\"other\", \(etag)", "*", "W/\(etag)", " \"a,b\" ,, W/\(etag) "] {
                let reply = try client.request("GET", path, token: token, fields: ["If-None-Match: \(condition)"])
                XCTAssertEqual(reply.status, 304, "\(path) If-None-Match: \(condition)")
                XCTAssertEqual(reply.headers["etag"], etag, path)
                XCTAssertEqual(reply.headers["cache-control"], "no-cache", path)
                XCTAssertNil(reply.headers["content-length"], "a 304 does not say the length of a body it does not send")
                XCTAssertNil(reply.headers["content-type"], path)
            }
        }
        // A body after any of those heads would have been read as the next response's start.
        let after = try client.request("GET", "/health", token: token)
        XCTAssertEqual(after.status, 200)
        XCTAssertEqual(after.text, #"{"status":"ok"}"#)
    }

    func test_ifNoneMatch_splitOverTwoLines_isOneList() throws {
        let client = try rawClient()
        let etag = try XCTUnwrap(try client.request("GET", "/orders/2", token: token).headers["etag"])
        let reply = try client.request("GET", "/orders/2", token: token, fields: ["If-None-Match: \"x\"", "If-None-Match: \(etag)"])
        XCTAssertEqual(reply.status, 304)
    }

    func test_aPhotos304_carriesItsLastModified() throws {
        let client = try rawClient()
        let photo = try client.request("GET", "/photos/1", token: token)
        let reply = try client.request("GET", "/photos/1", token: token, fields: ["If-None-Match: \(photo.headers["etag"]!)"])
        XCTAssertEqual(reply.status, 304)
        XCTAssertEqual(reply.headers["last-modified"], photo.headers["last-modified"])
        XCTAssertNil(reply.headers["repr-digest"])
    }

    func test_ifNoneMatch_withOtherTags_orMalformed_answers200Whole() throws {
        let client = try rawClient()
        let etag = try XCTUnwrap(try client.request("GET", "/photos/1", token: token).headers["etag"])
        let unquoted = etag.replacingOccurrences(of: "\"", with: "")
        for condition in ["\"other\"", unquoted, "\(etag) x", "*, \(etag)", "W/ \(etag)", "w/\(etag)", "\"\(unquoted)"] {
            let reply = try client.request("GET", "/photos/1", token: token, fields: ["If-None-Match: \(condition)"])
            XCTAssertEqual(reply.status, 200, "If-None-Match: \(condition)")
            XCTAssertEqual(reply.body, image, condition)
        }
    }

    func test_head_withAMatchingIfNoneMatch_answers304() throws {
        let client = try rawClient()
        let etag = try XCTUnwrap(try client.request("HEAD", "/orders/1", token: token).headers["etag"])
        let reply = try client.request("HEAD", "/orders/1", token: token, fields: ["If-None-Match: \(etag)"])
        XCTAssertEqual(reply.status, 304)
        XCTAssertEqual(try client.request("GET", "/health", token: token).status, 200)
    }

    func test_ifModifiedSince_atOrAfterLastModified_inEachDateForm_answers304() throws {
        let client = try rawClient()
        let photo = try client.request("GET", "/photos/1", token: token)
        let lastModified = try XCTUnwrap(photo.headers["last-modified"].flatMap(TestHTTPDate.date))
        let dates = [
            TestHTTPDate.string(lastModified),
            TestHTTPDate.string(lastModified.addingTimeInterval(86_400)),
            TestHTTPDate.string(lastModified, format: TestHTTPDate.rfc850Format),
            TestHTTPDate.string(lastModified, format: TestHTTPDate.asctimeFormat),
        ]
        for date in dates {
            let reply = try client.request("GET", "/photos/1", token: token, fields: ["If-Modified-Since: \(date)"])
            XCTAssertEqual(reply.status, 304, "If-Modified-Since: \(date)")
            XCTAssertEqual(reply.headers["etag"], photo.headers["etag"])
        }
    }

    func test_ifModifiedSince_beforeLastModified_unreadable_orOnJSON_answers200() throws {
        let client = try rawClient()
        let photo = try client.request("GET", "/photos/1", token: token)
        let lastModified = try XCTUnwrap(photo.headers["last-modified"].flatMap(TestHTTPDate.date))
        let earlier = TestHTTPDate.string(lastModified.addingTimeInterval(-1))
        for date in [earlier, "yesterday", photo.headers["last-modified"]!.lowercased(), "Sun, 06 Nov 1994 08:49:37 GMT"] {
            let reply = try client.request("GET", "/photos/1", token: token, fields: ["If-Modified-Since: \(date)"])
            XCTAssertEqual(reply.status, 200, "If-Modified-Since: \(date)")
        }
        // JSON resources have no Last-Modified: no date is "not modified since".
        let json = try client.request("GET", "/orders/1", token: token, fields: ["If-Modified-Since: Fri, 01 Jan 2100 00:00:00 GMT"])
        XCTAssertEqual(json.status, 200)
    }

    func test_ifModifiedSince_isIgnored_whenIfNoneMatchIsThere_evenUnmatchedOrMalformed() throws {
        let client = try rawClient()
        let photo = try client.request("GET", "/photos/1", token: token)
        let since = "If-Modified-Since: \(photo.headers["last-modified"]!)"
        for condition in ["\"other\"", "garbage"] {
            let reply = try client.request("GET", "/photos/1", token: token, fields: ["If-None-Match: \(condition)", since])
            XCTAssertEqual(reply.status, 200, "If-None-Match: \(condition)")
        }
    }

    func test_a304_sendsOnlyItsHead_asBytesSentAndNotModifiedCount() throws {
        let client = try rawClient()
        let etag = try XCTUnwrap(try client.request("GET", "/photos/1", token: token).headers["etag"])
        let before = jsonObject(try client.request("GET", "/_demo/stats", token: token).text)
        let start = client.bytesReceived
        let notModified = try client.request("GET", "/photos/1", token: token, fields: ["If-None-Match: \(etag)"])
        let headBytes = client.bytesReceived - start
        let after = jsonObject(try client.request("GET", "/_demo/stats", token: token).text)

        XCTAssertEqual(notModified.status, 304)
        XCTAssertLessThan(headBytes, 300, "only a head came: its photo has 1000 bytes")
        let sent = try XCTUnwrap(after["bytes_sent"] as? Int) - XCTUnwrap(before["bytes_sent"] as? Int)
        XCTAssertEqual(sent, headBytes, "the server counts what the client received: the 304's head")
        XCTAssertEqual(after["not_modified"] as? Int, 1)
        XCTAssertEqual(before["not_modified"] as? Int, 0)
    }
}
