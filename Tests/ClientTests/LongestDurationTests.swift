@testable import Baton
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `.seconds(Int64.max)`, what a caller may write for "never", wherever Baton takes a duration:
/// its conversions saturate rather than overflow (which traps), and what waits that long waits
/// (it does not wrap round to a wait of none).
final class LongestDurationTests: XCTestCase {
    private let longest = Duration.seconds(Int64.max)

    // MARK: The conversions

    func test_theLongestDuration_convertsToTheMostEachUnitHolds() {
        XCTAssertEqual(longest.clampedNanoseconds, Int.max)
        XCTAssertEqual(longest.clampedMilliseconds, Int.max / 1_000_000)
        XCTAssertEqual(longest.roundedMilliseconds, Int.max / 1_000_000 + 1)
        XCTAssertEqual(longest.dispatchInterval, .nanoseconds(Int.max))
        XCTAssertEqual(longest.timeInterval, 9.223372036854775807e18)
    }

    func test_aDurationJustPastTheMostNanoseconds_isClamped_notWrapped() {
        let past = Duration.nanoseconds(Int64.max) + .nanoseconds(1)
        XCTAssertEqual(past.clampedNanoseconds, Int.max)
        XCTAssertEqual(Duration.seconds(-5).clampedNanoseconds, 0)
        XCTAssertEqual((.zero - longest).clampedMilliseconds, 0)
    }

    func test_ordinaryDurations_convertExactly() {
        XCTAssertEqual(Duration.milliseconds(1500).clampedNanoseconds, 1_500_000_000)
        XCTAssertEqual(Duration.microseconds(1499).clampedMilliseconds, 1)
        XCTAssertEqual(Duration.microseconds(1499).roundedMilliseconds, 1)
        XCTAssertEqual(Duration.microseconds(1500).roundedMilliseconds, 2)
    }

    func test_multiplyingTheLongestDuration_saturates() {
        XCTAssertEqual(longest.saturatingMultiplied(by: 1 << 30), longest)
        XCTAssertEqual(Duration.seconds(Int64.max / 2 + 1).saturatingMultiplied(by: 2), longest)
        XCTAssertEqual(Duration.milliseconds(500).saturatingMultiplied(by: 8), .seconds(4))
        XCTAssertEqual(Duration.milliseconds(500).saturatingMultiplied(by: 0), .zero)
    }

    // MARK: Where Baton takes them

    func test_theLongestRetryDelays_giveTheLongestWait() throws {
        let policy = RetryPolicy(retryLimit: 40, baseDelay: longest, maximumDelay: longest)
        let request = summary(.get, "orders/1")
        for attempt in [1, 2, 31, 40] {
            let context = AttemptContext(request: request, attempt: attempt, response: nil, retries: [.transientFailure: attempt - 1])
            let decision = policy.decision(method: .get, error: URLError(.timedOut), context: context)
            let delay = try XCTUnwrap(retryDelay(decision))
            // At least half of it (the jitter), never wrapped round to a short wait.
            XCTAssertGreaterThanOrEqual(delay, longest / 2, "attempt \(attempt)")
        }
    }

    /// The call waits for its retry (it does not come round early), its wait is logged, and a
    /// cancel ends it.
    func test_aCallRetryingAfterTheLongestDelay_waits_andIsLogged_untilCancelled() async throws {
        let transport = constantStub(HTTPResponse(statusCode: 503))
        let lines = Recorder<String>()
        let retrying = expectation(description: "the retry is logged")
        let client = try makeClient(transport: transport, retriers: [RetryPolicy(baseDelay: longest, maximumDelay: longest)]) {
            $0.timeout = self.longest
            $0.deadline = self.longest
            $0.monitors = [LoggingMonitor { line in
                lines.append(line)
                if line.contains("retrying in") { retrying.fulfill() }
            }]
        }
        let call = client.send(Request<Data>(.get, "orders/1"))
        await fulfillment(of: [retrying], timeout: 30)
        try await Task.sleep(for: .milliseconds(200))

        XCTAssertEqual(transport.requests.count, 1, "the retry did not wait")
        let logged = try XCTUnwrap(lines.events.first { $0.contains("retrying in") })
        XCTAssertTrue(logged.contains("retrying in \(Duration.seconds(Int64.max).roundedMilliseconds) ms"), logged)
        call.cancel()
        let error = await awaitError(call)
        XCTAssertTrue(error is CancellationError, "\(String(describing: error))")
        XCTAssertEqual(transport.requests.count, 1, "the cancelled call retried")
    }

    func test_aPromiseTimeoutOfTheLongestDuration_doesNotFireEarly() async throws {
        let limited = Promise<Int> { _, fulfill, _, _ in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { fulfill(7) }
        }.timeout(after: longest)
        let value = try await limited.value
        XCTAssertEqual(value, 7)
    }
}
