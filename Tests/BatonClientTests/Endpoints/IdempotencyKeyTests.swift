@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `Idempotency-Key`: which requests get a key, how it is written (a quoted string), which keys
/// are refused before anything is sent, and an endpoint's own field winning.
final class IdempotencyKeyTests: XCTestCase {

    /// An endpoint with a key of its own, and header fields of its own.
    private struct KeyedEndpoint: Endpoint {
        typealias Response = Order
        var key: String?
        var headers: [String: String] = [:]
        var method: HTTPMethod { .post }
        var path: EndpointPath { "orders" }
        var body: RequestBody { .json(["name": "山田"]) }
        var idempotencyKey: String? { key }
    }

    private func photoForm() -> MultipartForm {
        var form = MultipartForm()
        form.append(Data("JPEG".utf8), name: "photo", filename: "a.jpg", contentType: "image/jpeg")
        return form
    }

    private func keyField(_ request: URLRequest?) -> String? {
        request?.value(forHTTPHeaderField: IdempotencyKey.headerName)
    }

    // MARK: Which requests get one

    func test_multipartPOST_getsAKeyAtInit_andOtherRequestsGetNone() {
        let upload = Request<Void>(.post, "photos", body: .multipart(photoForm()))
        XCTAssertNotNil(upload.idempotencyKey)
        XCTAssertNil(Request<Order>(.get, "orders/1").idempotencyKey)
        XCTAssertNil(Request<Order>(.post, "orders", body: .json(["a": 1])).idempotencyKey)
        XCTAssertNil(Request<Void>(.put, "photos/1", body: .multipart(photoForm())).idempotencyKey)
        XCTAssertNil(Request<Void>(.patch, "photos/1", body: .multipart(photoForm())).idempotencyKey)
    }

    func test_madeKey_isALowerCasedUUID() throws {
        let key = IdempotencyKey.make()
        XCTAssertEqual(key, key.lowercased())
        XCTAssertNotNil(UUID(uuidString: key), key)
        XCTAssertNotEqual(IdempotencyKey.make(), IdempotencyKey.make())
    }

    func test_multipartPOST_sendsItsKeyQuoted() async throws {
        let upload = Request<Void>(.post, "photos", body: .multipart(photoForm()))
        let request = try await sentRequest(upload, response: HTTPResponse(statusCode: 204))
        let key = try XCTUnwrap(upload.idempotencyKey)
        XCTAssertEqual(keyField(request), "\"\(key)\"")
    }

    func test_theSameRequestValueSentTwice_carriesTheSameKey() async throws {
        let transport = constantStub(HTTPResponse(statusCode: 204))
        let client = try makeClient(transport: transport)
        let upload = Request<Void>(.post, "photos", body: .multipart(photoForm()))
        _ = try await client.send(upload).value
        _ = try await client.send(upload).value
        let keys = transport.requests.map(keyField)
        XCTAssertEqual(keys.count, 2)
        XCTAssertNotNil(keys[0])
        XCTAssertEqual(keys[0], keys[1])
    }

    func test_twoRequestsMadeSeparately_carryDifferentKeys() async throws {
        let transport = constantStub(HTTPResponse(statusCode: 204))
        let client = try makeClient(transport: transport)
        _ = try await client.send(Request<Void>(.post, "photos", body: .multipart(photoForm()))).value
        _ = try await client.send(Request<Void>(.post, "photos", body: .multipart(photoForm()))).value
        let keys = transport.requests.compactMap(keyField)
        XCTAssertEqual(keys.count, 2)
        XCTAssertNotEqual(keys[0], keys[1])
    }

    func test_GET_andJSONPOST_sendNoKey() async throws {
        let get = try await sentRequest(Request<Order>(.get, "orders/1"))
        XCTAssertNil(keyField(get))
        let post = try await sentRequest(Request<Order>(.post, "orders", body: .json(["a": 1])))
        XCTAssertNil(keyField(post))
    }

    func test_keySetToNil_sendsNone_andAKeySetByHand_isSent() async throws {
        var upload = Request<Void>(.post, "photos", body: .multipart(photoForm()))
        upload.idempotencyKey = nil
        let withoutKey = try await sentRequest(upload, response: HTTPResponse(statusCode: 204))
        XCTAssertNil(keyField(withoutKey))

        var review = Request<Order>(.post, "reviews", body: .json(["rating": 5]))
        review.idempotencyKey = "review-7"
        let withKey = try await sentRequest(review)
        XCTAssertEqual(keyField(withKey), "\"review-7\"")
    }

    func test_anEndpointsOwnKey_isSentQuoted() async throws {
        let request = try await sentRequest(KeyedEndpoint(key: "pay-1"))
        XCTAssertEqual(keyField(request), "\"pay-1\"")
    }

    // MARK: An endpoint's own field

    func test_anEndpointsOwnIdempotencyKeyField_winsOverItsKey() async throws {
        let request = try await sentRequest(KeyedEndpoint(key: "generated", headers: ["Idempotency-Key": "\"mine\""]))
        XCTAssertEqual(keyField(request), "\"mine\"")
        XCTAssertEqual(request?.allHTTPHeaderFields?.keys.filter { $0.lowercased() == "idempotency-key" }.count, 1)
    }

    func test_anEndpointsOwnField_inLowerCase_winsToo() async throws {
        let request = try await sentRequest(KeyedEndpoint(key: "generated", headers: ["idempotency-key": "\"mine\""]))
        XCTAssertEqual(keyField(request), "\"mine\"")
        XCTAssertEqual(request?.allHTTPHeaderFields?.keys.filter { $0.lowercased() == "idempotency-key" }.count, 1)
    }

    // MARK: Keys refused

    func test_invalidKeys_failTheCallBeforeAnythingIsSent() async throws {
        let refused = [
            "", String(repeating: "k", count: 256), "a b", "a\"b", "a\\b", "clé", "a\tb", "a\r\nX-Forged: 1", "\u{7F}",
        ]
        for key in refused {
            let (error, requests) = try await failedSend(KeyedEndpoint(key: key))
            let parts = invalidRequestParts(error)
            XCTAssertEqual(parts?.field, "idempotencyKey", "key \(key.debugDescription)")
            XCTAssertEqual(requests.count, 0, "key \(key.debugDescription) was sent")
        }
    }

    func test_refusalReasons_sayWhatIsWrong() async throws {
        let (empty, _) = try await failedSend(KeyedEndpoint(key: ""))
        XCTAssertEqual(invalidRequestParts(empty)?.reason, "it must be 1 to 255 characters long")
        let (badCharacter, _) = try await failedSend(KeyedEndpoint(key: "a b"))
        XCTAssertEqual(invalidRequestParts(badCharacter)?.reason, "it may hold visible ASCII characters only, and no \" or \\")
    }

    func test_keysAtTheLimits_areAccepted() async throws {
        let accepted = [String(repeating: "k", count: 255), "!", "~", "a-b_c.d:e/f+g=h"]
        for key in accepted {
            let request = try await sentRequest(KeyedEndpoint(key: key))
            XCTAssertEqual(keyField(request), "\"\(key)\"")
        }
    }
}
