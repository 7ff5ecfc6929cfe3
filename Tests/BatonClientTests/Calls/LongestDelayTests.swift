import BatonSupport
@testable import BatonPromise
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `.seconds(Int64.max)` where Baton takes a duration: what waits that long waits (it does not
/// wrap round to a wait of none). The conversions themselves are BatonSupportTests'.
final class LongestDelayTests: XCTestCase {
    private let longest = Duration.seconds(Int64.max)

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
