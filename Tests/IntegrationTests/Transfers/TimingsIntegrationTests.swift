@testable import BatonSupport
@testable import BatonClient
import Foundation
import TestSupport
import XCTest

/// Where a call's time went, against DemoServer: the phases add up to the total, the server's
/// delay shows as waiting, a retry's wait as a retry wait, and LoggingMonitor prints them.
final class TimingsIntegrationTests: IntegrationTestCase {
    private func timedCall<T: Sendable>(_ request: Request<T>, configure: (inout Client.Configuration) -> Void = { _ in }) async throws -> CallTimings {
        let events = EventRecorder()
        let client = try makeClient { configuration in
            configuration.monitors = [events]
            configure(&configuration)
        }
        _ = try? await client.send(request).value
        let ended = events.events.last { $0.kind == .succeeded || $0.kind == .failed }
        return try XCTUnwrap(ended?.timings)
    }

    /// Every phase of every attempt, the preparing and the retry waits, summed.
    private func sum(_ timings: CallTimings) -> Duration {
        timings.attempts.reduce(timings.preparing) { total, attempt in
            [attempt.connecting, attempt.securing, attempt.sending, attempt.waiting, attempt.receiving, attempt.processing, attempt.retryWait]
                .reduce(total + attempt.adapting) { $0 + ($1 ?? .zero) }
        }
    }

    func test_theServersDelay_isWaiting_andThePhasesAddUpToTheTotal() async throws {
        let timings = try await timedCall(Request<Order>(.get, "orders/1", headers: ["X-Demo-Fault": "delay=100ms"]))

        XCTAssertEqual(timings.attempts.count, 1)
        let attempt = try XCTUnwrap(timings.attempts.first)
        // The server holds its response 100 ms from reading the request, which may come before the
        // client's thread, paused by a busy machine, marks its last byte written: that pause moves
        // time from waiting to sending, but the two together always hold the delay.
        let sendingAndWaiting = try XCTUnwrap(attempt.sending) + XCTUnwrap(attempt.waiting)
        XCTAssertGreaterThanOrEqual(sendingAndWaiting, .milliseconds(100), "\(timings)")
        XCTAssertGreaterThan(try XCTUnwrap(attempt.waiting), .zero, "\(timings)")
        XCTAssertNotNil(attempt.connecting)
        XCTAssertNotNil(attempt.sending)
        XCTAssertNotNil(attempt.receiving)
        XCTAssertNotNil(attempt.processing)
        XCTAssertEqual(attempt.securing != nil, Self.overTLS, "a TLS handshake only over https")
        let gap = abs(seconds(sum(timings) - timings.total))
        XCTAssertLessThan(gap, seconds(timings.total) * 0.03, "\(timings)")
    }

    func test_aRetry_showsItsWait_andBothAttempts() async throws {
        let timings = try await timedCall(Request<Order>(.get, "orders/2", headers: ["X-Demo-Fault": "status=503;times=1"])) {
            $0.retryPolicy = RetryPolicy(baseDelay: .milliseconds(80))
        }

        XCTAssertEqual(timings.attempts.count, 2)
        XCTAssertGreaterThanOrEqual(timings.retryWaits, .milliseconds(40), "\(timings)")
        XCTAssertNil(timings.attempts.last?.retryWait)
        XCTAssertEqual(timings.attempts.last?.reusedConnection, true)
        let gap = abs(seconds(sum(timings) - timings.total))
        XCTAssertLessThan(gap, seconds(timings.total) * 0.03, "\(timings)")
    }

    func test_loggingMonitor_printsTheTimingsOnTheCallsLine() async throws {
        let lines = Locked<[String]>([])
        let events = EventRecorder()
        let client = try makeClient { $0.monitors = [LoggingMonitor { line in lines.withLock { $0.append(line) } }, events] }

        _ = try await client.send(Request<Order>(.get, "orders/3")).value

        let line = try XCTUnwrap(lines.value.last)
        XCTAssertNotNil(line.range(of: #"^✓ GET \#(origin)/orders/3 200 in \d+ ms \(1 attempt\) \[total \d+\.\d ms: .+\]$"#, options: .regularExpression), line)
        // Which phases the line names depends on the machine (one under 50 µs is left out): the
        // line carries the very timings the call's last event has.
        let timings = try XCTUnwrap(events.events.last { $0.kind == .succeeded }?.timings)
        XCTAssertTrue(line.hasSuffix(" [\(timings)]"), "\(line) does not end with [\(timings)]")
    }
}
