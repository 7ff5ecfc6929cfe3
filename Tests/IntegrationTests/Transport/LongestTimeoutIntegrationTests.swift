@testable import BatonClient
import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `.seconds(Int64.max)` ("never") as every timeout Baton's own transport and client take, over
/// loopback to DemoServer: calls go through as with the defaults (no conversion of those
/// durations traps), and the idle connection waits for the next request rather than closing at
/// once.
final class LongestTimeoutIntegrationTests: IntegrationTestCase {
    private let longest = Duration.seconds(Int64.max)

    /// A client of `server` whose transport's idle and connect timeouts, and whose request timeout
    /// and deadline, are all the longest duration; `retryPolicy` as given.
    private func longestClient(retryPolicy: RetryPolicy? = nil) throws -> Client {
        var settings = HTTP1Transport.Configuration()
        settings.idleTimeout = longest
        settings.connectTimeout = longest
        var configuration = Client.Configuration(baseURL: server.baseURL)
        configuration.headers["Authorization"] = "Bearer \(token!)"
        configuration.timeout = longest
        configuration.deadline = longest
        configuration.retryPolicy = retryPolicy
        return try Client(configuration: configuration, transport: HTTP1Transport(configuration: settings))
    }

    func test_theLongestTimeouts_letCallsThrough_onOneConnectionKeptIdleBetweenThem() async throws {
        let client = try longestClient()
        let before = server.stats.connectionsAccepted

        for id in 1...3 {
            let order: Order = try await client.send(Request<Order>(.get, "orders/\(id)")).value
            XCTAssertEqual(order.id, id)
        }

        XCTAssertEqual(server.stats.connectionsAccepted - before, 1, "the idle connection closed rather than wait")
    }

    func test_theLongestBaseRetryDelay_underAShortMaximum_retriesAfterTheMaximum() async throws {
        let client = try longestClient(retryPolicy: RetryPolicy(baseDelay: longest, maximumDelay: .milliseconds(10)))

        let order: Order = try await client.send(Request<Order>(.get, "orders/1", headers: ["X-Demo-Fault": "status=503;times=1"])).value

        XCTAssertEqual(order.id, 1)
        let attempts = try await requestCount("GET /orders/:id")
        XCTAssertEqual(attempts, 2)
    }
}
