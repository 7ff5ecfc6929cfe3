@testable import BatonClient
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// Cancelling a call through its promise: in flight, during a retry's wait, and what monitors
/// and the transport see.
final class CancellationClientTests: XCTestCase {

    /// A stub whose responder signals `entered`, then blocks until `release` is signalled.
    private func blockingStub(entered: XCTestExpectation, release: DispatchSemaphore) -> StubTransport {
        StubTransport { _, _ in
            entered.fulfill()
            release.wait()
            return .json(Fixtures.orderJSON)
        }
    }

    private func isCancelledAPIError(_ error: (any Error)?) -> Bool {
        (error as? APIError)?.isCancelled == true
    }

    // MARK: In flight

    func test_cancelInFlight_settlesThePromiseAsCancelled() async throws {
        let entered = expectation(description: "the stub received the request")
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let client = try makeClient(transport: blockingStub(entered: entered, release: release))
        let promise = client.send(Request<Order>(.get, "orders/1"))
        await fulfillment(of: [entered], timeout: 30)
        promise.cancel()
        XCTAssertEqual(promise.state, .cancelled)
    }

    func test_cancelInFlight_failureHandlerSeesIsCancelled() async throws {
        let entered = expectation(description: "the stub received the request")
        let handled = expectation(description: "failure handler ran")
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let flags = Recorder<Bool>()
        let client = try makeClient(transport: blockingStub(entered: entered, release: release))
        let promise = client.send(Request<Order>(.get, "orders/1"))
        let observed = promise.failure { _, isCancelled in
            flags.append(isCancelled)
            handled.fulfill()
        }
        await fulfillment(of: [entered], timeout: 30)
        promise.cancel()
        await fulfillment(of: [handled], timeout: 30)
        XCTAssertEqual(flags.events, [true])
        XCTAssertEqual(observed.state, .cancelled)
    }

    func test_cancelInFlight_valueThrowsCancellationError() async throws {
        let entered = expectation(description: "the stub received the request")
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let client = try makeClient(transport: blockingStub(entered: entered, release: release))
        let promise = client.send(Request<Order>(.get, "orders/1"))
        await fulfillment(of: [entered], timeout: 30)
        promise.cancel()
        let error = await awaitError(promise)
        XCTAssertTrue(error is CancellationError, "got \(String(describing: error))")
    }

    func test_cancelInFlight_monitorSeesFailedWithCancelledAPIError() async throws {
        let entered = expectation(description: "the stub received the request")
        let handled = expectation(description: "failure handler ran")
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let monitor = RecordingMonitor()
        let client = try makeClient(transport: blockingStub(entered: entered, release: release)) { $0.monitors = [monitor] }
        let promise = client.send(Request<Order>(.get, "orders/1"))
        promise.failure { _, _ in handled.fulfill() }
        await fulfillment(of: [entered], timeout: 30)
        promise.cancel()
        await fulfillment(of: [handled], timeout: 30)
        XCTAssertEqual(monitor.labels, ["started GET http://h/orders/1", "attemptStarted 1", "failed attempts 1"])
        XCTAssertTrue(isCancelledAPIError(monitor.failedError), "got \(String(describing: monitor.failedError))")
    }

    func test_cancel_reachesTheTransportsWork() async throws {
        let sent = expectation(description: "the transport received the request")
        let transport = ManualTransport { _ in sent.fulfill() }
        let promise = try makeClient(transport: transport).send(Request<Order>(.get, "orders/1"))
        await fulfillment(of: [sent], timeout: 30)
        promise.cancel()
        XCTAssertEqual(transport.exchange(0).cancellations.value, 1)
    }

    func test_responseArrivingAfterCancel_isIgnored() async throws {
        let sent = expectation(description: "the transport received the request")
        let monitor = RecordingMonitor()
        let transport = ManualTransport { _ in sent.fulfill() }
        let client = try makeClient(transport: transport) { $0.monitors = [monitor] }
        let promise = client.send(Request<Order>(.get, "orders/1"))
        await fulfillment(of: [sent], timeout: 30)
        promise.cancel()
        transport.exchange(0).fulfill(.json(Fixtures.orderJSON))
        _ = await awaitError(promise)
        XCTAssertEqual(promise.state, .cancelled)
        XCTAssertEqual(monitor.labels, ["started GET http://h/orders/1", "attemptStarted 1", "failed attempts 1"])
    }

    /// The adapter is let go only after the cancel, so that the call, were it to ignore the
    /// cancel, would go on to send: the test waits for the adapter to return, then watches the
    /// transport for a request that must not come.
    func test_cancelWhileAnAdapterRuns_sendsNothingEvenOnceTheAdapterReturns() async throws {
        let adapting = expectation(description: "the adapter started")
        let returned = expectation(description: "the adapter returned")
        let sent = expectation(description: "a request reached the transport")
        sent.isInverted = true
        let release = DispatchSemaphore(value: 0)
        struct Blocking: RequestAdapter {
            let adapting: XCTestExpectation
            let returned: XCTestExpectation
            let release: DispatchSemaphore
            func adapt(_ request: URLRequest, context: AttemptContext) async throws -> URLRequest {
                adapting.fulfill()
                await waitOffThread(for: release)
                returned.fulfill()
                return request
            }
        }
        let transport = StubTransport { _, _ in
            sent.fulfill()
            return .json(Fixtures.orderJSON)
        }
        let monitor = RecordingMonitor()
        let client = try makeClient(transport: transport) { configuration in
            configuration.adapters = [Blocking(adapting: adapting, returned: returned, release: release)]
            configuration.monitors = [monitor]
        }
        let promise = client.send(Request<Order>(.get, "orders/1"))
        await fulfillment(of: [adapting], timeout: 10)
        promise.cancel()
        release.signal()
        await fulfillment(of: [returned], timeout: 10)
        // Had the call gone on, its request would follow the adapter's return within microseconds.
        await fulfillment(of: [sent], timeout: 1)
        XCTAssertEqual(promise.state, .cancelled)
        XCTAssertEqual(monitor.labels, ["started GET http://h/orders/1", "failed attempts 0"])
        XCTAssertEqual(transport.requests.count, 0)
    }

    func test_transportReportingURLErrorCancelled_settlesTheCallAsCancelled() async throws {
        let monitor = RecordingMonitor()
        let client = try makeClient(transport: sequencedStub([.failure(URLError(.cancelled))]), retriers: [fastRetryPolicy]) {
            $0.monitors = [monitor]
        }
        let promise = client.send(Request<Order>(.get, "orders/1"))
        let error = await awaitError(promise)
        XCTAssertEqual(promise.state, .cancelled)
        XCTAssertTrue(isCancelledAPIError(error), "got \(String(describing: error))")
        XCTAssertEqual(monitor.labels, ["started GET http://h/orders/1", "attemptStarted 1", "failed attempts 1"])
    }

    // MARK: During a retry's wait

    /// While a retry's delay runs, nothing `cancel()` reaches is in flight (the wait is a
    /// `DispatchQueue.asyncAfter`), so the `failed` event must come from the cancellation itself.
    /// (Call.swift reported nothing here before it subscribed `reportCancellation` to the
    /// call's promise: this test failed at db7fe08.)
    func test_cancelDuringTheRetryWait_monitorSeesFailedWithCancelledAPIError() async throws {
        let retrying = expectation(description: "a retry was scheduled")
        let failed = expectation(description: "the call was reported failed")
        let monitor = RecordingMonitor { event in
            switch event.kind {
            case .retrying: retrying.fulfill()
            case .failed: failed.fulfill()
            default: break
            }
        }
        let log = Recorder<String>()
        let transport = constantStub(HTTPResponse(statusCode: 503))
        let client = try makeClient(transport: transport, retriers: [ScriptedRetrier(name: "slow", decision: .retry(after: .seconds(30)), log: log)]) {
            $0.monitors = [monitor]
        }
        let promise = client.send(Request<Order>(.get, "orders/1"))
        await fulfillment(of: [retrying], timeout: 30)
        promise.cancel()
        XCTAssertEqual(promise.state, .cancelled)
        await fulfillment(of: [failed], timeout: 30)
        XCTAssertEqual(monitor.labels, ["started GET http://h/orders/1", "attemptStarted 1", "retrying 1", "failed attempts 1"])
        XCTAssertTrue(isCancelledAPIError(monitor.failedError), "got \(String(describing: monitor.failedError))")
    }

    /// As with the adapter above: the retrier answers "retry now" only after the cancel, and the
    /// test watches for a second attempt that must not come.
    func test_cancelWhileARetrierDecides_reportsFailedOnce_andNeverRetries() async throws {
        let deciding = expectation(description: "the retrier was asked")
        let decided = expectation(description: "the retrier answered")
        let secondAttempt = expectation(description: "a second request reached the transport")
        secondAttempt.isInverted = true
        let release = DispatchSemaphore(value: 0)
        struct Blocking: RequestRetrier {
            let deciding: XCTestExpectation
            let decided: XCTestExpectation
            let release: DispatchSemaphore
            func retry(_ request: URLRequest, failedWith error: any Error, context: AttemptContext) async -> RetryDecision {
                deciding.fulfill()
                await waitOffThread(for: release)
                decided.fulfill()
                return .retry(after: .zero)
            }
        }
        let monitor = RecordingMonitor()
        let attempts = Counter()
        let transport = StubTransport { _, _ in
            if attempts.increment() > 1 { secondAttempt.fulfill() }
            return HTTPResponse(statusCode: 503)
        }
        let client = try makeClient(transport: transport, retriers: [Blocking(deciding: deciding, decided: decided, release: release)]) {
            $0.monitors = [monitor]
        }
        let promise = client.send(Request<Order>(.get, "orders/1"))
        await fulfillment(of: [deciding], timeout: 10)
        promise.cancel()
        release.signal()
        await fulfillment(of: [decided], timeout: 10)
        await fulfillment(of: [secondAttempt], timeout: 1)
        XCTAssertEqual(promise.state, .cancelled)
        XCTAssertEqual(attempts.value, 1)
        XCTAssertEqual(monitor.labels, ["started GET http://h/orders/1", "attemptStarted 1", "failed attempts 1"])
        XCTAssertTrue(isCancelledAPIError(monitor.failedError), "got \(String(describing: monitor.failedError))")
    }
}

/// Waits, without holding a thread of Swift's cooperative pool, until `semaphore` is signalled.
private func waitOffThread(for semaphore: DispatchSemaphore) async {
    await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
            semaphore.wait()
            continuation.resume()
        }
    }
}
