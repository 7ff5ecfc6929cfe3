@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// The client's retry loop, through StubTransport: which failures are retried, how often, and
/// how retriers are consulted.
final class RetryLoopClientTests: XCTestCase {

    private let unavailable = HTTPResponse(statusCode: 503)
    private let ok = HTTPResponse.json(Fixtures.orderJSON)

    func test_get503Then200_returnsTheValueAfterTwoRequests() async throws {
        let transport = sequencedStub([unavailable, ok])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])
        let order = try await client.send(Request<Order>(.get, "orders/1")).value
        XCTAssertEqual(order, Fixtures.order)
        XCTAssertEqual(transport.requests.count, 2)
    }

    func test_retriedRequest_isTheSameRequestAgain() async throws {
        let transport = sequencedStub([unavailable, ok])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])
        _ = try await client.send(Request<Order>(.get, "orders/1", query: [URLQueryItem(name: "q", value: "x")])).value
        XCTAssertEqual(transport.requests.map(\.url?.absoluteString), ["http://h/orders/1?q=x", "http://h/orders/1?q=x"])
        XCTAssertEqual(transport.requests.map(\.httpMethod), ["GET", "GET"])
    }

    func test_post503_failsAfterOneRequest() async throws {
        let transport = sequencedStub([unavailable, ok])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])
        let error = await awaitError(client.send(Request<Order>(.post, "orders", body: .json(["a": 1]))))
        XCTAssertEqual((error as? APIError)?.statusCode, 503)
        XCTAssertEqual(transport.requests.count, 1)
    }

    func test_get503Always_failsAfterThreeRequestsWithTheLastError() async throws {
        let transport = constantStub(unavailable)
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])
        let error = await awaitError(client.send(Request<Order>(.get, "orders/1")))
        XCTAssertEqual((error as? APIError)?.statusCode, 503)
        XCTAssertEqual(transport.requests.count, 3)
    }

    func test_get404_isNotRetried() async throws {
        let transport = sequencedStub([HTTPResponse(statusCode: 404), ok])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])
        let error = await awaitError(client.send(Request<Order>(.get, "orders/1")))
        XCTAssertEqual((error as? APIError)?.statusCode, 404)
        XCTAssertEqual(transport.requests.count, 1)
    }

    func test_transportFailure_isRetriedThenSucceeds() async throws {
        let transport = sequencedStub([.failure(URLError(.networkConnectionLost)), .success(ok)])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])
        let order = try await client.send(Request<Order>(.get, "orders/1")).value
        XCTAssertEqual(order, Fixtures.order)
        XCTAssertEqual(transport.requests.count, 2)
    }

    func test_decodingFailure_isNotRetried() async throws {
        let transport = constantStub(.json(#"{"id":1}"#))
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])
        let error = await awaitError(client.send(Request<Order>(.get, "orders/1")))
        guard let matched = error as? APIError, matched.kind == .decodingFailed else {
            return XCTFail("expected decodingFailed, got \(String(describing: error))")
        }
        XCTAssertEqual(transport.requests.count, 1)
    }

    func test_noRetriers_failsAfterOneRequest() async throws {
        let transport = sequencedStub([unavailable, ok])
        let client = try makeClient(transport: transport, retriers: [])
        let error = await awaitError(client.send(Request<Order>(.get, "orders/1")))
        XCTAssertEqual((error as? APIError)?.statusCode, 503)
        XCTAssertEqual(transport.requests.count, 1)
    }

    func test_defaultConfiguration_retriesWithTheDefaultPolicy() {
        let configuration = Client.Configuration(baseURL: URL(string: "http://h/")!)
        XCTAssertTrue(configuration.retriers.isEmpty)
        XCTAssertEqual(configuration.retryPolicy?.baseDelay, RetryPolicy.defaultBaseDelay)
    }

    func test_addingARetrier_keepsTheRetryPolicy() async throws {
        let log = Recorder<String>()
        let transport = sequencedStub([unavailable, ok])
        let client = try Client(baseURL: URL(string: "http://h/")!, transport: transport) { configuration in
            configuration.retryPolicy = fastRetryPolicy
            configuration.retriers.append(ScriptedRetrier(name: "mine", decision: .doNotRetry, log: log))
        }
        _ = try await client.send(Request<Order>(.get, "orders/1")).value
        XCTAssertEqual(transport.requests.count, 2, "the policy retried the 503 after the added retrier declined")
        XCTAssertEqual(log.events, ["mine 1"])
    }

    func test_retryCountsArePerCause() async throws {
        // Two replays for another cause leave the policy its whole budget of one transient retry.
        let transport = sequencedStub([unavailable, unavailable, unavailable, unavailable, ok])
        let replays = Counter()
        let replayer = ClosureRetrier { _, _, _ in
            guard replays.increment() <= 2 else { return .doNotRetry }
            return .retry(after: .zero, cause: .expiredCredentials)
        }
        let monitor = RecordingMonitor()
        let client = try Client(baseURL: URL(string: "http://h/")!, transport: transport) { configuration in
            configuration.retryPolicy = RetryPolicy(retryLimit: 1, baseDelay: .milliseconds(1))
            configuration.retriers = [replayer]
            configuration.monitors = [monitor]
        }
        let error = await awaitError(client.send(Request<Order>(.get, "orders/1")))
        XCTAssertEqual((error as? APIError)?.statusCode, 503)
        XCTAssertEqual(transport.requests.count, 4, "two replays, one transient retry, then the limit")
        let causes = monitor.events.compactMap(\.retryCause)
        XCTAssertEqual(causes, [.expiredCredentials, .expiredCredentials, .transientFailure])
    }

    func test_failWith_replacesTheAttemptsError() async throws {
        struct Replacement: Error {}
        let transport = sequencedStub([unavailable, ok])
        let client = try makeClient(transport: transport, retriers: [
            ClosureRetrier { _, _, _ in .fail(with: Replacement()) },
            fastRetryPolicy,
        ])
        let error = await awaitError(client.send(Request<Order>(.get, "orders/1")))
        XCTAssertTrue(error is Replacement, String(describing: error))
        XCTAssertEqual(transport.requests.count, 1, "no later retrier is asked once one fails the call")
    }

    // MARK: Retriers' order

    func test_firstDecisionOtherThanDoNotRetry_wins() async throws {
        let log = Recorder<String>()
        let transport = sequencedStub([unavailable, ok])
        let client = try makeClient(transport: transport, retriers: [
            ScriptedRetrier(name: "A", decision: .doNotRetry, log: log),
            ScriptedRetrier(name: "B", decision: .retry(after: .milliseconds(1)), log: log),
            ScriptedRetrier(name: "C", decision: .doNotRetry, log: log),
        ])
        _ = try await client.send(Request<Order>(.get, "orders/1")).value
        XCTAssertEqual(log.events, ["A 1", "B 1"])
        XCTAssertEqual(transport.requests.count, 2)
    }

    func test_everyRetrierDeclining_failsWithTheAttemptsError() async throws {
        let log = Recorder<String>()
        let transport = sequencedStub([unavailable, ok])
        let client = try makeClient(transport: transport, retriers: [
            ScriptedRetrier(name: "A", decision: .doNotRetry, log: log),
            ScriptedRetrier(name: "B", decision: .doNotRetry, log: log),
        ])
        let error = await awaitError(client.send(Request<Order>(.get, "orders/1")))
        XCTAssertEqual((error as? APIError)?.statusCode, 503)
        XCTAssertEqual(log.events, ["A 1", "B 1"])
        XCTAssertEqual(transport.requests.count, 1)
    }

    func test_customRetrier_canRetryAPOST() async throws {
        let log = Recorder<String>()
        let transport = sequencedStub([unavailable, ok])
        let client = try makeClient(transport: transport, retriers: [
            ScriptedRetrier(name: "always", decision: .retry(after: .zero), log: log),
        ])
        _ = try await client.send(Request<Order>(.post, "orders", body: .json(["a": 1]))).value
        XCTAssertEqual(transport.requests.map { $0.httpBody.map { String(decoding: $0, as: UTF8.self) } }, [#"{"a":1}"#, #"{"a":1}"#])
    }

    func test_retrier_isToldTheAttemptNumberAndTheFailedResponse() async throws {
        let seen = Recorder<String>()
        struct Inspecting: RequestRetrier {
            let seen: Recorder<String>
            func retry(_ request: URLRequest, failedWith error: any Error, context: AttemptContext) async -> RetryDecision {
                seen.append("attempt \(context.attempt) status \(context.response?.statusCode ?? 0) \(context.request)")
                return context.attempt < 3 ? .retry(after: .milliseconds(1)) : .doNotRetry
            }
        }
        let transport = constantStub(unavailable)
        let client = try makeClient(transport: transport, retriers: [Inspecting(seen: seen)])
        _ = await awaitError(client.send(Request<Order>(.get, "orders/1")))
        XCTAssertEqual(seen.events, [
            "attempt 1 status 503 GET http://h/orders/1", "attempt 2 status 503 GET http://h/orders/1", "attempt 3 status 503 GET http://h/orders/1",
        ])
        XCTAssertEqual(transport.requests.count, 3)
    }

    func test_retrier_isToldNoResponseForATransportFailure() async throws {
        let seen = Recorder<String>()
        struct Inspecting: RequestRetrier {
            let seen: Recorder<String>
            func retry(_ request: URLRequest, failedWith error: any Error, context: AttemptContext) async -> RetryDecision {
                seen.append("response \(context.response == nil ? "none" : "some"), error \(error)")
                return .doNotRetry
            }
        }
        let client = try makeClient(transport: sequencedStub([.failure(URLError(.timedOut))]), retriers: [Inspecting(seen: seen)])
        _ = await awaitError(client.send(Request<Order>(.get, "orders/1")))
        XCTAssertEqual(seen.events, [
            "response none, error GET http://h/orders/1 failed before a response arrived: the request timed out (URLError.Code -1001).",
        ])
    }
}
