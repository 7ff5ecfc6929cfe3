@testable import BatonSupport
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `RetryPolicy` against real failures: what is retried, how often, and how long it waits.
/// `client` retries with the default policy but a 10 ms base delay.
final class RetryIntegrationTests: IntegrationTestCase {
    func test_getFailingOnceWith503_succeedsOnTheRetry() async throws {
        let events = EventRecorder()
        let client = try makeClient { $0.monitors = [events] }

        let order = try await client.send(GetOrder(id: 1, fault: "status=503;times=1")).value

        XCTAssertEqual(order, Fixtures.order(1))
        let requests = try await requestCount("GET /orders/:id")
        XCTAssertEqual(requests, 2)
        XCTAssertEqual(events.labels, [
            "started GET \(origin)/orders/1", "attempt 1", "retrying after 1 (status 503)", "attempt 2", "succeeded 200 after 2",
        ])
    }

    func test_getFailingWith503Always_failsAfterThreeAttempts() async throws {
        let events = EventRecorder()
        let client = try makeClient { $0.monitors = [events] }

        let error = await apiError(client.send(GetOrder(id: 1, fault: "status=503")))

        XCTAssertEqual(RetryPolicy.defaultRetryLimit, 2)
        XCTAssertEqual(error?.statusCode, 503)
        let requests = try await requestCount("GET /orders/:id")
        XCTAssertEqual(requests, 3)
        XCTAssertEqual(events.labels, [
            "started GET \(origin)/orders/1",
            "attempt 1", "retrying after 1 (status 503)",
            "attempt 2", "retrying after 2 (status 503)",
            "attempt 3", "failed after 3 (status 503)",
        ])
    }

    func test_retryAfterOneSecond_delaysTheRetryByASecond() async throws {
        let events = EventRecorder()
        let client = try makeClient { $0.retryPolicy = .default; $0.monitors = [events] }

        let order = try await client.send(GetOrder(id: 1, fault: "status=503;retry-after=1;times=1")).value

        XCTAssertEqual(order, Fixtures.order(1))
        let attempts = events.attemptTimes
        XCTAssertEqual(attempts.count, 2)
        guard attempts.count == 2 else { return }
        let gap = seconds(attempts[1] - attempts[0])
        XCTAssertGreaterThanOrEqual(gap, 0.9)
        XCTAssertLessThan(gap, 5)
        let delays = events.events.compactMap { event -> Duration? in
            event.kind == .retrying ? event.delay : nil
        }
        XCTAssertEqual(delays, [.seconds(1)])
    }

    func test_getFailingOnceWith429_succeedsOnTheRetry() async throws {
        let order = try await client.send(GetOrder(id: 2, fault: "status=429;times=1")).value

        XCTAssertEqual(order, Fixtures.order(2))
        let requests = try await requestCount("GET /orders/:id")
        XCTAssertEqual(requests, 2)
    }

    func test_postFailingWith500_isNotRetried() async throws {
        let error = await apiError(client.send(Reviews.post(facilityID: 1, content: "良い", rating: 5, headers: ["X-Demo-Fault": "status=500"])))

        XCTAssertEqual(error?.statusCode, 500)
        let requests = try await requestCount("POST /facilities/:facility_id/reviews")
        XCTAssertEqual(requests, 1)
    }

    func test_getWithConnectionDroppedOnce_succeedsOnTheRetry() async throws {
        let events = EventRecorder()
        let client = try makeClient { $0.monitors = [events] }

        let order = try await client.send(GetOrder(id: 1, fault: "drop;times=1")).value

        XCTAssertEqual(order, Fixtures.order(1))
        let requests = try await requestCount("GET /orders/:id")
        XCTAssertEqual(requests, 2)
        XCTAssertEqual(events.labels, [
            "started GET \(origin)/orders/1", "attempt 1",
            // A connection closed with no response: what the default transport calls it.
            "retrying after 1 (transport \(URLError.Code.networkConnectionLost.rawValue))",
            "attempt 2", "succeeded 200 after 2",
        ])
    }

    /// `RetryPolicy` documents `badServerResponse` as retried for "a connection cut in the middle
    /// of a response (the body was shorter than declared)". On Linux such a cut arrives as
    /// `URLError.Code.unknown` (-1, "transfer closed with 63 bytes remaining to read"), which the
    /// default policy does not retry, so this call fails instead of succeeding on the retry.
    func test_getWithBodyCutShortOnce_succeedsOnTheRetry() async throws {
        let order = try await client.send(GetOrder(id: 1, fault: "drop-after=130;times=1")).value

        XCTAssertEqual(order, Fixtures.order(1))
        let requests = try await requestCount("GET /orders/:id")
        XCTAssertEqual(requests, 2)
    }

    func test_garbageBody_isNotRetried() async throws {
        let error = await apiError(client.send(GetOrder(id: 1, fault: "body=garbage")))

        guard let matched = error, matched.kind == .decodingFailed else { return XCTFail("expected decodingFailed, got \(error.map { "\($0)" } ?? "nil")") }
        let requests = try await requestCount("GET /orders/:id")
        XCTAssertEqual(requests, 1)
    }

    func test_notFound_isNotRetried() async throws {
        let error = await apiError(client.send(GetOrder(id: 999)))

        XCTAssertEqual(error?.statusCode, 404)
        let requests = try await requestCount("GET /orders/:id")
        XCTAssertEqual(requests, 1)
    }

    func test_retriedAttempt_isAdaptedAgain() async throws {
        let tokens = Locked<[String]>([])
        let token = self.token!
        let client = try makeClient(authorized: false) { configuration in
            configuration.adapters = [BearerTokenAdapter {
                tokens.withLock { $0.append(token) }
                return token
            }]
        }

        let order = try await client.send(GetOrder(id: 1, fault: "status=503;times=1")).value

        XCTAssertEqual(order, Fixtures.order(1))
        XCTAssertEqual(tokens.value, [token, token])
    }
}
