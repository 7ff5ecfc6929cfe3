import XCTest
@testable import DemoServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Range requests (RFC 9110 §14) on the resource routes: `206 Partial Content`, `416`, the ranges
/// that are ignored, and `If-Range`, over a socket.
final class RangeRequestTests: ServerTestCase {
    private var token = ""
    /// Photo 1, 1000 bytes.
    private let image = testBytes(count: 1000, seed: 31)

    override func setUp() async throws {
        try await super.setUp()
        token = try await login().token
        let review = try await postJSON("/facilities/1/reviews", ["content": "ranges", "rating": 3], token: token)
        XCTAssertEqual(review.status, 201)
        let photo = try await uploadPhoto(image, token: token)
        XCTAssertEqual(photo.status, 201)
    }

    private func get(_ client: RawClient, _ fields: [String], path: String = "/photos/1") throws -> RawClient.Response {
        try client.request("GET", path, token: token, fields: fields)
    }

    func test_eachRangeForm_answers206_withExactlyItsBytes_andContentRange() throws {
        let client = try rawClient()
        let cases: [(range: String, bytes: ClosedRange<Int>)] = [
            ("bytes=0-99", 0...99), ("bytes=900-", 900...999), ("bytes=-100", 900...999), ("bytes=990-5000", 990...999),
            ("bytes=-5000", 0...999), ("bytes=0-0", 0...0), ("bytes=999-999", 999...999), ("BYTES=10-19", 10...19),
            ("bytes= 10-19 ,", 10...19), ("bytes=007-008", 7...8),
        ]
        for (range, bytes) in cases {
            let reply = try get(client, ["Range: \(range)"])
            XCTAssertEqual(reply.status, 206, range)
            XCTAssertEqual(reply.body, Array(image[bytes]), range)
            XCTAssertEqual(reply.headers["content-range"], "bytes \(bytes.lowerBound)-\(bytes.upperBound)/1000", range)
            XCTAssertEqual(reply.headers["content-length"], String(bytes.count), range)
        }
    }

    func test_a206_keepsTheValidators_theType_andTheDigestOfTheWholePhoto() throws {
        let client = try rawClient()
        let whole = try get(client, [])
        let partial = try get(client, ["Range: bytes=100-199", "Want-Repr-Digest: sha-256=10"])
        XCTAssertEqual(partial.status, 206)
        for field in ["etag", "last-modified", "cache-control", "accept-ranges", "content-type"] {
            XCTAssertEqual(partial.headers[field], whole.headers[field], field)
        }
        XCTAssertEqual(partial.headers["repr-digest"], expectedReprDigest(image), "Repr-Digest is of the whole representation")
    }

    func test_aRangeOfAJSONResource_isServedToo() throws {
        let client = try rawClient()
        let whole = try get(client, [], path: "/orders/1")
        let partial = try get(client, ["Range: bytes=0-9"], path: "/orders/1")
        XCTAssertEqual(partial.status, 206)
        XCTAssertEqual(partial.body, Array(whole.body[0...9]))
        XCTAssertEqual(partial.headers["content-range"], "bytes 0-9/\(whole.body.count)")
        XCTAssertEqual(partial.headers["etag"], whole.headers["etag"], "the tag of the whole, not of the slice")
    }

    func test_aRangeStartingAtOrPastTheEnd_answers416_withTheLength() throws {
        let client = try rawClient()
        for range in ["bytes=1000-", "bytes=1000-2000", "bytes=5000-", "bytes=-0", "bytes=99999999999999999999999-"] {
            let reply = try get(client, ["Range: \(range)"])
            XCTAssertEqual(reply.status, 416, range)
            XCTAssertEqual(reply.headers["content-range"], "bytes */1000", range)
            XCTAssertEqual(reply.message, "the range selects no bytes: the representation has 1000 bytes", range)
            XCTAssertEqual(reply.headers["etag"], expectedPhotoETag(image), range)
        }
    }

    func test_numbersPastInt_saturate_toTheEnd() throws {
        let client = try rawClient()
        for range in ["bytes=0-99999999999999999999999", "bytes=-99999999999999999999999", "bytes=0-"] {
            let reply = try get(client, ["Range: \(range)"])
            XCTAssertEqual(reply.status, 206, range)
            XCTAssertEqual(reply.headers["content-range"], "bytes 0-999/1000", range)
            XCTAssertEqual(reply.body, image, range)
        }
    }

    func test_severalRanges_anotherUnit_orAMalformedRange_areIgnored_forTheWhole200() throws {
        let client = try rawClient()
        let ignored = ["bytes=0-1,5-6", "bytes=0-1, -5", "bytes=5-1", "bytes=abc", "items=0-1", "bytes =0-1", "bytes=",
                       "bytes=-", "bytes=--1", "bytes=1-2-3", "bytes=+1-2", "bytes=1 -2", "=0-1", "bytes", "bytes=0x10-20"]
        for range in ignored {
            let reply = try get(client, ["Range: \(range)"])
            XCTAssertEqual(reply.status, 200, range)
            XCTAssertEqual(reply.body, image, range)
            XCTAssertNil(reply.headers["content-range"], range)
        }
        let twoLines = try get(client, ["Range: bytes=0-1", "Range: bytes=2-3"])
        XCTAssertEqual(twoLines.status, 200)
    }

    func test_head_ignoresRange() throws {
        let client = try rawClient()
        let reply = try client.request("HEAD", "/photos/1", token: token, fields: ["Range: bytes=0-9"])
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.headers["content-length"], "1000")
    }

    func test_aMatchingIfNoneMatch_wins_overRange() throws {
        let client = try rawClient()
        let reply = try get(client, ["Range: bytes=0-9", "If-None-Match: \(expectedPhotoETag(image))"])
        XCTAssertEqual(reply.status, 304)
    }

    func test_ifRange_withTheCurrentStrongTag_orTheExactDate_appliesTheRange() throws {
        let client = try rawClient()
        let whole = try get(client, [])
        for condition in [whole.headers["etag"]!, whole.headers["last-modified"]!] {
            let reply = try get(client, ["Range: bytes=0-9", "If-Range: \(condition)"])
            XCTAssertEqual(reply.status, 206, "If-Range: \(condition)")
            XCTAssertEqual(reply.body, Array(image[0...9]))
        }
    }

    func test_ifRange_withAnotherTag_aWeakTag_anotherDate_orGarbage_sendsTheWhole200() throws {
        let client = try rawClient()
        let whole = try get(client, [])
        let etag = whole.headers["etag"]!
        let lastModified = try XCTUnwrap(whole.headers["last-modified"].flatMap(TestHTTPDate.date))
        let conditions = ["\"other\"", "W/\(etag)", TestHTTPDate.string(lastModified.addingTimeInterval(1)),
                          TestHTTPDate.string(lastModified.addingTimeInterval(-1)), "garbage", "\(etag), \(etag)"]
        for condition in conditions {
            let reply = try get(client, ["Range: bytes=0-9", "If-Range: \(condition)"])
            XCTAssertEqual(reply.status, 200, "If-Range: \(condition)")
            XCTAssertEqual(reply.body, image, condition)
        }
    }

    func test_dropAfter_cutsA206_afterItsHead_andPartOfTheSlice() throws {
        let client = try rawClient()
        let partial = try get(client, ["Range: bytes=100-199"])
        let headBytes = client.bytesReceived - partial.body.count
        let cut = try rawClient()
        cut.send("GET /photos/1 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(token)\r\nRange: bytes=100-199\r\n"
            + "X-Demo-Fault: drop-after=\(headBytes + 50)\r\n\r\n")
        let (closed, bytes) = cut.readUntilClosed()
        XCTAssertTrue(closed)
        XCTAssertEqual(bytes.count, headBytes + 50)
        XCTAssertTrue(String(decoding: bytes.prefix(30), as: UTF8.self).hasPrefix("HTTP/1.1 206 Partial Content"))
        XCTAssertEqual(Array(bytes.suffix(50)), Array(image[100..<150]))
    }

    func test_rangeAnswers_areCountedAsPartialResponses() async throws {
        let client = try rawClient()
        _ = try get(client, ["Range: bytes=0-9"])
        _ = try get(client, ["Range: bytes=5000-"])
        _ = try get(client, ["Range: bytes=0-1,3-4"])
        let stats = try await stats()
        XCTAssertEqual(stats["partial_responses"] as? Int, 1, "one 206; a 416 and an ignored range are not partial")
    }
}
