@testable import BatonSupport
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// Monitors see real calls: every event in order, and `LoggingMonitor` never writes a secret.
final class MonitorIntegrationTests: IntegrationTestCase {
    func test_successfulCall_isReportedStartedAttemptSucceeded() async throws {
        let events = EventRecorder()
        let client = try makeClient { $0.monitors = [events] }

        _ = try await client.send(GetOrder(id: 1)).value

        XCTAssertEqual(events.labels, ["started GET \(origin)/orders/1", "attempt 1", "succeeded 200 after 1"])
    }

    func test_retriedCall_isReportedWithItsRetry() async throws {
        let events = EventRecorder()
        let client = try makeClient { $0.monitors = [events] }

        _ = try await client.send(FindOrders(name: "山田").with(fault: "status=502;times=1")).value

        XCTAssertEqual(events.labels, [
            "started GET \(origin)/order_search?name=%E5%B1%B1%E7%94%B0", "attempt 1", "retrying after 1 (status 502)",
            "attempt 2", "succeeded 200 after 2",
        ])
    }

    func test_failedCall_isReportedFailedWithItsError() async throws {
        let events = EventRecorder()
        let client = try makeClient { $0.monitors = [events] }

        _ = await apiError(client.send(Reviews.post(facilityID: 1, content: "", rating: 0)))

        XCTAssertEqual(events.labels, ["started POST \(origin)/facilities/1/reviews", "attempt 1", "failed after 1 (status 422)"])
    }

    func test_succeededEvent_arrivesBeforeThePromiseSettles() async throws {
        let events = EventRecorder()
        let client = try makeClient { $0.monitors = [events] }
        let labelsWhenSettled = Locked<[String]>([])

        _ = try await client.send(GetOrder(id: 1))
            .success { order in labelsWhenSettled.withLock { $0 = events.labels }; return order }
            .value

        XCTAssertEqual(labelsWhenSettled.value.last, "succeeded 200 after 1")
    }

    func test_attemptStarted_carriesTheRequestAsSentAfterAdapters() async throws {
        let events = EventRecorder()
        let token = self.token!
        let client = try makeClient(authorized: false) { configuration in
            configuration.adapters = [BearerTokenAdapter { token }, HeadersAdapter(["X-Attempt-Tag": "tagged"])]
            configuration.monitors = [events]
        }

        _ = try await client.send(GetOrder(id: 1)).value

        let sent = events.events.compactMap { event -> URLRequest? in
            event.kind == .attemptStarted ? event.urlRequest : nil
        }
        XCTAssertEqual(sent.count, 1)
        XCTAssertEqual(sent.first?.value(forHTTPHeaderField: "Authorization"), "Bearer \(token)")
        XCTAssertEqual(sent.first?.value(forHTTPHeaderField: "X-Attempt-Tag"), "tagged")
        XCTAssertEqual(sent.first?.url, server.baseURL.appendingPathComponent("orders/1"))
    }

    func test_loggingMonitor_neverWritesTheTokenOrThePassword() async throws {
        let lines = Locked<[String]>([])
        let logging = LoggingMonitor(showsAttempts: true) { line in lines.withLock { $0.append(line) } }
        let session = Locked<String?>(nil)
        let client = try makeClient(authorized: false) { configuration in
            configuration.adapters = [BearerTokenAdapter { session.value }]
            configuration.monitors = [logging]
        }

        let tokens = try await client.send(Demo.login()).value
        session.withLock { $0 = tokens.token }
        _ = try await client.send(GetOrder(id: 1)).value
        _ = await apiError(client.send(GetOrder(id: 999)))
        _ = try await client.send(Demo.echo(headers: ["Cookie": "session=cookie-secret"])).value

        let log = lines.value.joined(separator: "\n")
        // The calls' lines; those about connections (⇄) depend on the transport.
        XCTAssertEqual(lines.value.filter { !$0.hasPrefix("⇄") }.count, 12, log)
        XCTAssertFalse(log.contains(tokens.token), log)
        XCTAssertFalse(log.contains(tokens.refreshToken), log)
        XCTAssertFalse(log.contains("password=demo"), log)
        XCTAssertFalse(log.contains("cookie-secret"), log)
        XCTAssertTrue(log.contains("-H 'Authorization: <redacted>'"), log)
        XCTAssertTrue(log.contains("-H 'Cookie: <redacted>'"), log)
    }

    func test_loggingMonitor_writesOneLinePerStepInReadableForm() async throws {
        let lines = Locked<[String]>([])
        let client = try makeClient { $0.monitors = [LoggingMonitor { line in lines.withLock { $0.append(line) } }] }

        _ = try await client.send(GetOrder(id: 1, fault: "status=503;times=1")).value
        _ = await apiError(client.send(GetOrder(id: 999)))

        let written = lines.value
        XCTAssertEqual(written.count, 5, "\(written)")
        guard written.count == 5 else { return }
        XCTAssertEqual(written[0], "→ GET \(origin)/orders/1")
        XCTAssertTrue(written[1].hasPrefix("↻ GET \(origin)/orders/1 attempt 1 failed (transientFailure), retrying in "), written[1])
        XCTAssertTrue(written[1].hasSuffix(#": GET \#(origin)/orders/1 failed: the server answered 503 Service Unavailable ("injected")."#), written[1])
        XCTAssertTrue(written[2].hasPrefix("✓ GET \(origin)/orders/1 200 in "), written[2])
        XCTAssertTrue(written[2].contains(" ms (2 attempts) [total "), written[2])
        XCTAssertEqual(written[3], "→ GET \(origin)/orders/999")
        XCTAssertTrue(written[4].hasPrefix(#"✗ GET \#(origin)/orders/999 failed after 1 attempt: GET \#(origin)/orders/999 failed: the server answered 404 Not Found ("not_found"). [total "#), written[4])
    }

    /// The attempt's curl line is a command that reproduces the request: a POST carries its body
    /// (`--data-raw`), secret fields hidden.
    func test_loggingMonitor_logsAPostsBodyRedacted() async throws {
        let lines = Locked<[String]>([])
        let client = try makeClient(authorized: false) { configuration in
            configuration.monitors = [LoggingMonitor(showsAttempts: true) { line in lines.withLock { $0.append(line) } }]
        }

        _ = try await client.send(Demo.login()).value

        let attempt = lines.value.first { $0.hasPrefix("⇢") } ?? ""
        XCTAssertTrue(attempt.hasSuffix("--data-raw 'grant_type=password&username=demo&password=<redacted>'"), attempt)
    }
}

private extension FindOrders {
    /// The same search as a `Request`, carrying an `X-Demo-Fault`.
    func with(fault: String) -> Request<[Order]> {
        Request(.get, path, query: query, headers: ["X-Demo-Fault": fault])
    }
}
