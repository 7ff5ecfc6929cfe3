@testable import BatonClient
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// The timings monitors hear with a call's end: present on `succeeded` and `failed` only, one
/// entry per attempt, and phases that add up to the total, whatever the call's end (a success,
/// a failure, retries, a cancellation).
final class CallTimingsTests: XCTestCase {

    private let ok = HTTPResponse.json(Fixtures.orderJSON)

    /// The sum of every phase of `timings`: preparing, each attempt's phases, the retry waits.
    private func sum(_ timings: CallTimings) -> Duration {
        timings.attempts.reduce(timings.preparing) { sum, attempt in
            let phases: [Duration?] = [
                attempt.adapting, attempt.connecting, attempt.securing, attempt.sending, attempt.waiting,
                attempt.receiving, attempt.processing, attempt.retryWait,
            ]
            return phases.reduce(sum) { $0 + ($1 ?? .zero) }
        }
    }

    private func assertAddsUp(_ timings: CallTimings?, file: StaticString = #filePath, line: UInt = #line) {
        guard let timings else { return XCTFail("no timings", file: file, line: line) }
        let difference = sum(timings) - timings.total
        XCTAssertTrue(
            difference <= .microseconds(1) && difference >= .microseconds(-1),
            "the phases add up to \(sum(timings)), the total is \(timings.total)", file: file, line: line
        )
        XCTAssertGreaterThan(timings.total, .zero, file: file, line: line)
        XCTAssertGreaterThanOrEqual(timings.preparing, .zero, file: file, line: line)
    }

    /// The timings of the call's last event, which must be of `kind`.
    private func endTimings(_ monitor: RecordingMonitor, _ kind: ClientEvent.Kind, file: StaticString = #filePath, line: UInt = #line) -> CallTimings? {
        guard let last = monitor.events.last, last.kind == kind else {
            XCTFail("the last event is not \(kind): \(monitor.labels)", file: file, line: line)
            return nil
        }
        return last.timings
    }

    // MARK: Success and failure

    func test_success_timingsAddUpToTheTotal_withOneAttempt() async throws {
        let monitor = RecordingMonitor()
        let client = try makeClient(transport: constantStub(ok)) { $0.monitors = [monitor] }
        _ = try await client.send(Request<Order>(.get, "orders/1")).value

        let timings = endTimings(monitor, .succeeded)
        assertAddsUp(timings)
        XCTAssertEqual(timings?.attempts.count, 1)
        XCTAssertNil(timings?.attempts.first?.retryWait)
        XCTAssertEqual(timings?.retryWaits, .zero)
    }

    func test_success_overAStub_hasNoTransferPhases_butReceivingAndProcessing() async throws {
        // StubTransport marks none of the moments only a transport sees.
        let monitor = RecordingMonitor()
        let client = try makeClient(transport: constantStub(ok)) { $0.monitors = [monitor] }
        _ = try await client.send(Request<Order>(.get, "orders/1")).value

        let attempt = try XCTUnwrap(endTimings(monitor, .succeeded)?.attempts.first)
        XCTAssertNil(attempt.connecting)
        XCTAssertNil(attempt.securing)
        XCTAssertNil(attempt.sending)
        XCTAssertNil(attempt.waiting)
        XCTAssertNil(attempt.reusedConnection)
        XCTAssertNotNil(attempt.receiving)
        XCTAssertNotNil(attempt.processing)
    }

    func test_onlyTheEndEvents_carryTimings() async throws {
        let monitor = RecordingMonitor()
        let transport = sequencedStub([HTTPResponse(statusCode: 503), ok])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy]) { $0.monitors = [monitor] }
        _ = try await client.send(Request<Order>(.get, "orders/1")).value

        let carrying = monitor.events.filter { $0.timings != nil }.map(RecordingMonitor.label)
        XCTAssertEqual(carrying, ["succeeded 200 attempts 2"])
    }

    func test_failure_timingsAddUpToTheTotal() async throws {
        let monitor = RecordingMonitor()
        let client = try makeClient(transport: constantStub(HTTPResponse(statusCode: 404))) { $0.monitors = [monitor] }
        _ = await awaitError(client.send(Request<Order>(.get, "orders/1")))

        let timings = endTimings(monitor, .failed)
        assertAddsUp(timings)
        XCTAssertEqual(timings?.attempts.count, 1)
        XCTAssertNil(timings?.attempts.first?.retryWait)
    }

    func test_transportFailure_timingsAddUpToTheTotal() async throws {
        let monitor = RecordingMonitor()
        let client = try makeClient(transport: sequencedStub([.failure(URLError(.cannotConnectToHost))])) { $0.monitors = [monitor] }
        _ = await awaitError(client.send(Request<Order>(.get, "orders/1")))

        let timings = endTimings(monitor, .failed)
        assertAddsUp(timings)
        XCTAssertEqual(timings?.attempts.count, 1)
        XCTAssertNil(timings?.attempts.first?.processing, "no answer came to process")
    }

    func test_invalidRequest_isAllPreparing() async throws {
        let monitor = RecordingMonitor()
        let client = try makeClient(transport: constantStub(ok)) { $0.monitors = [monitor] }
        _ = await awaitError(client.send(Request<Order>(.get, "orders/1", headers: ["Bad Name": "x"])))

        let timings = try XCTUnwrap(endTimings(monitor, .failed))
        XCTAssertEqual(timings.attempts.count, 0)
        XCTAssertEqual(timings.preparing, timings.total)
    }

    // MARK: Retries

    func test_callRetriedTwice_hasThreeAttempts_whoseWaitsAndPhasesAddUp() async throws {
        let monitor = RecordingMonitor()
        let transport = sequencedStub([.failure(URLError(.networkConnectionLost)), .success(HTTPResponse(statusCode: 503)), .success(ok)])
        let policy = RetryPolicy(baseDelay: .milliseconds(4))
        let client = try makeClient(transport: transport, retriers: [policy]) { $0.monitors = [monitor] }
        _ = try await client.send(Request<Order>(.get, "orders/1")).value

        let timings = try XCTUnwrap(endTimings(monitor, .succeeded))
        assertAddsUp(timings)
        XCTAssertEqual(timings.attempts.count, 3)
        XCTAssertEqual(transport.requests.count, 3)
        // The policy waits at least half its delay: 2 ms before the second attempt, 4 ms before the third.
        let waits = timings.attempts.map(\.retryWait)
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(waits[0]), .milliseconds(2))
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(waits[1]), .milliseconds(4))
        XCTAssertNil(waits[2], "the last attempt has no wait after it")
        XCTAssertEqual(timings.retryWaits, try XCTUnwrap(waits[0]) + XCTUnwrap(waits[1]))
    }

    func test_callFailingAfterRetries_hasAWaitAfterEachAttemptButTheLast() async throws {
        let monitor = RecordingMonitor()
        let client = try makeClient(transport: constantStub(HTTPResponse(statusCode: 503)), retriers: [fastRetryPolicy]) {
            $0.monitors = [monitor]
        }
        _ = await awaitError(client.send(Request<Order>(.get, "orders/1")))

        let timings = try XCTUnwrap(endTimings(monitor, .failed))
        assertAddsUp(timings)
        XCTAssertEqual(timings.attempts.map { $0.retryWait != nil }, [true, true, false])
    }

    // MARK: Cancellation

    func test_cancelledInFlight_timingsAddUpToTheTotal() async throws {
        let monitor = RecordingMonitor()
        let transport = ManualTransport()
        let client = try makeClient(transport: transport) { $0.monitors = [monitor] }
        let promise = client.send(Request<Order>(.get, "orders/1"))
        XCTAssertEqual(transport.count, 1, "sent at once: no adapter to wait for")
        promise.cancel()
        _ = await awaitError(promise)

        let timings = endTimings(monitor, .failed)
        assertAddsUp(timings)
        XCTAssertEqual(timings?.attempts.count, 1)
        XCTAssertNil(timings?.attempts.first?.retryWait)
    }

    func test_cancelledWhileWaitingToRetry_timingsAddUpToTheTotal() async throws {
        let retrying = expectation(description: "the call waits to retry")
        let monitor = RecordingMonitor { event in if event.kind == .retrying { retrying.fulfill() } }
        let transport = constantStub(HTTPResponse(statusCode: 503))
        let client = try makeClient(transport: transport, retriers: [RetryPolicy(baseDelay: .seconds(60), maximumDelay: .seconds(60))]) {
            $0.monitors = [monitor]
        }
        let promise = client.send(Request<Order>(.get, "orders/1"))
        await fulfillment(of: [retrying], timeout: 30)
        promise.cancel()
        _ = await awaitError(promise)

        let timings = try XCTUnwrap(endTimings(monitor, .failed))
        assertAddsUp(timings)
        XCTAssertEqual(timings.attempts.count, 1, "the second attempt never started")
        XCTAssertEqual(transport.requests.count, 1)
    }
}
