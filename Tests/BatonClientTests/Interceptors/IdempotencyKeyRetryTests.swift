@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// The retry policy and `Idempotency-Key`: a `POST` carrying one is retried on transient
/// failures, with the same key on every attempt; one without is not.
final class IdempotencyKeyRetryTests: XCTestCase {

    private let unavailable = HTTPResponse(statusCode: 503)
    private let created = HTTPResponse.json(Fixtures.orderJSON)

    private func keyedPost(_ key: String? = "order-1") -> Request<Order> {
        var request = Request<Order>(.post, "orders", body: .json(["name": "山田"]))
        request.idempotencyKey = key
        return request
    }

    private func keys(_ transport: StubTransport) -> [String?] {
        transport.requests.map { $0.value(forHTTPHeaderField: IdempotencyKey.headerName) }
    }

    func test_keyedPOST_503Then201_isRetried_withTheSameKey() async throws {
        let transport = sequencedStub([unavailable, created])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])
        let order = try await client.send(keyedPost()).value
        XCTAssertEqual(order, Fixtures.order)
        XCTAssertEqual(keys(transport), ["\"order-1\"", "\"order-1\""])
        XCTAssertEqual(transport.requests.map(\.httpMethod), ["POST", "POST"])
    }

    func test_keyedPOST_connectionLost_isRetried_withTheSameKey() async throws {
        let transport = sequencedStub([.failure(URLError(.networkConnectionLost)), .success(created)])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])
        _ = try await client.send(keyedPost()).value
        XCTAssertEqual(keys(transport), ["\"order-1\"", "\"order-1\""])
    }

    func test_keyedPOST_alwaysFailing_isRetriedToTheLimit_withOneKey() async throws {
        let transport = constantStub(unavailable)
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])
        let error = await awaitError(client.send(keyedPost()))
        XCTAssertEqual((error as? APIError)?.statusCode, 503)
        XCTAssertEqual(keys(transport), Array(repeating: "\"order-1\"", count: 1 + RetryPolicy.defaultRetryLimit))
    }

    func test_multipartPOST_isRetried_withTheKeyItWasMadeWith() async throws {
        var form = MultipartForm()
        form.append(Data("JPEG".utf8), name: "photo", filename: "a.jpg", contentType: "image/jpeg")
        let upload = Request<Void>(.post, "photos", body: .multipart(form))
        let key = try XCTUnwrap(upload.idempotencyKey)
        let transport = sequencedStub([.failure(URLError(.networkConnectionLost)), .success(HTTPResponse(statusCode: 204))])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])
        try await client.send(upload).value
        XCTAssertEqual(keys(transport), ["\"\(key)\"", "\"\(key)\""])
    }

    func test_POSTWithoutAKey_isNotRetried() async throws {
        let transport = sequencedStub([unavailable, created])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])
        let error = await awaitError(client.send(keyedPost(nil)))
        XCTAssertEqual((error as? APIError)?.statusCode, 503)
        XCTAssertEqual(transport.requests.count, 1)
    }

    func test_POSTWithoutAKey_connectionLost_isNotRetried() async throws {
        let transport = sequencedStub([.failure(URLError(.networkConnectionLost)), .success(created)])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])
        let error = await awaitError(client.send(keyedPost(nil)))
        XCTAssertEqual((error as? APIError)?.urlError?.code, .networkConnectionLost)
        XCTAssertEqual(transport.requests.count, 1)
    }

    func test_keyedPOST_isNotRetried_whenThePolicySaysSo() async throws {
        var policy = fastRetryPolicy
        policy.retriesRequestsWithIdempotencyKey = false
        let transport = sequencedStub([unavailable, created])
        let client = try makeClient(transport: transport, retriers: [policy])
        let error = await awaitError(client.send(keyedPost()))
        XCTAssertEqual((error as? APIError)?.statusCode, 503)
        XCTAssertEqual(transport.requests.count, 1)
    }

    func test_keyedPOST_notTransient_isNotRetried() async throws {
        let transport = sequencedStub([HTTPResponse(statusCode: 422), created])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])
        let error = await awaitError(client.send(keyedPost()))
        XCTAssertEqual((error as? APIError)?.statusCode, 422)
        XCTAssertEqual(transport.requests.count, 1)
    }

    func test_anAdapterSettingTheField_makesAPOSTRetryable() async throws {
        struct KeyAdapter: RequestAdapter {
            func adapt(_ request: URLRequest, context: AttemptContext) async throws -> URLRequest {
                var request = request
                request.setValue("\"by-adapter\"", forHTTPHeaderField: "Idempotency-Key")
                return request
            }
        }
        let transport = sequencedStub([unavailable, created])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy]) { $0.adapters = [KeyAdapter()] }
        _ = try await client.send(keyedPost(nil)).value
        XCTAssertEqual(keys(transport), ["\"by-adapter\"", "\"by-adapter\""])
    }

    // MARK: The policy's decision alone

    func test_decision_keyedPOST_isRetried_unkeyedIsNot() {
        let policy = RetryPolicy(baseDelay: .milliseconds(1))
        let context = AttemptContext(request: summary(.post, "orders"), attempt: 1)
        let error = URLError(.timedOut)
        XCTAssertNotNil(policy.decision(method: .post, isKeyed: true, error: error, context: context).delay)
        XCTAssertNil(policy.decision(method: .post, isKeyed: false, error: error, context: context).delay)
    }
}
