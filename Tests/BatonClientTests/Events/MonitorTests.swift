@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// The events monitors receive, their order, and that the outcome is reported before the
/// promise's handlers run.
final class MonitorClientTests: XCTestCase {

    private let ok = HTTPResponse.json(Fixtures.orderJSON)

    private func monitoredClient(
        _ transport: any Transport,
        monitors: [any ClientMonitor],
        retriers: [any RequestRetrier] = [],
        configure: (inout Client.Configuration) -> Void = { _ in }
    ) throws -> Client {
        try makeClient(transport: transport, retriers: retriers) { configuration in
            configuration.monitors = monitors
            configure(&configuration)
        }
    }

    // MARK: Sequences

    func test_success_isStartedAttemptStartedSucceeded() async throws {
        let monitor = RecordingMonitor()
        _ = try await monitoredClient(constantStub(ok), monitors: [monitor]).send(Request<Order>(.get, "orders/1")).value
        XCTAssertEqual(monitor.labels, ["started GET http://h/orders/1", "attemptStarted 1", "succeeded 200 attempts 1"])
    }

    func test_retriedCall_reportsTheRetryAndTheSecondAttempt() async throws {
        let monitor = RecordingMonitor()
        let transport = sequencedStub([HTTPResponse(statusCode: 503), ok])
        _ = try await monitoredClient(transport, monitors: [monitor], retriers: [fastRetryPolicy]).send(Request<Order>(.get, "orders/1")).value
        XCTAssertEqual(monitor.labels, [
            "started GET http://h/orders/1", "attemptStarted 1", "retrying 1", "attemptStarted 2", "succeeded 200 attempts 2",
        ])
    }

    func test_failure_isReportedAsFailedWithTheAPIError() async throws {
        let monitor = RecordingMonitor()
        let transport = constantStub(HTTPResponse(statusCode: 404))
        let promiseError = await awaitError(try monitoredClient(transport, monitors: [monitor], retriers: [fastRetryPolicy]).send(Request<Order>(.get, "orders/1")))
        XCTAssertEqual(monitor.labels, ["started GET http://h/orders/1", "attemptStarted 1", "failed attempts 1"])
        guard let matched = monitor.failedError as? APIError, matched.kind == .unacceptableStatus else {
            return XCTFail("expected unacceptableStatus, got \(String(describing: monitor.failedError))")
        }
        let response = matched.response!
        XCTAssertEqual(response.statusCode, 404)
        XCTAssertEqual((monitor.failedError as? APIError)?.description, (promiseError as? APIError)?.description)
    }

    func test_exhaustedRetries_reportFailedWithTheAttemptCount() async throws {
        let monitor = RecordingMonitor()
        let transport = constantStub(HTTPResponse(statusCode: 503))
        _ = await awaitError(try monitoredClient(transport, monitors: [monitor], retriers: [fastRetryPolicy]).send(Request<Order>(.get, "orders/1")))
        XCTAssertEqual(monitor.labels, [
            "started GET http://h/orders/1", "attemptStarted 1", "retrying 1", "attemptStarted 2", "retrying 2", "attemptStarted 3",
            "failed attempts 3",
        ])
    }

    /// `Call.start` reports an unbuildable request with `attempts: 0`: nothing was sent.
    func test_invalidRequest_isStartedThenFailedWithZeroAttempts() async throws {
        let monitor = RecordingMonitor()
        let endpoint = Request<Order>(.get, "orders/1", headers: ["X Bad": "1"])
        _ = await awaitError(try monitoredClient(constantStub(ok), monitors: [monitor]).send(endpoint))
        XCTAssertEqual(monitor.labels, ["started GET http://h/orders/1", "failed attempts 0"])
        XCTAssertEqual(invalidRequestParts(monitor.failedError)?.field, #"header "X Bad""#)
    }

    func test_throwingAdapter_isReportedAsFailedWithItsErrorAndZeroAttempts() async throws {
        let monitor = RecordingMonitor()
        let client = try monitoredClient(constantStub(ok), monitors: [monitor]) { $0.adapters = [HeadersAdapter { throw AdapterFailure(code: 3) }] }
        _ = await awaitError(client.send(Request<Order>(.get, "orders/1")))
        XCTAssertEqual(monitor.labels, ["started GET http://h/orders/1", "failed attempts 0"])  // nothing was sent
        XCTAssertEqual(monitor.failedError as? AdapterFailure, AdapterFailure(code: 3))
    }

    // MARK: Event contents

    func test_attemptStarted_carriesTheRequestAsSentAfterAdapters() async throws {
        let monitor = RecordingMonitor()
        let client = try monitoredClient(constantStub(ok), monitors: [monitor]) { $0.adapters = [BearerTokenAdapter { "t" }] }
        _ = try await client.send(Request<Order>(.get, "orders/1")).value
        guard let matched = monitor.events.dropFirst().first, matched.kind == .attemptStarted else {
            return XCTFail("expected attemptStarted second, got \(monitor.labels)")
        }
        let request = matched.urlRequest!
        XCTAssertEqual(request.value(forHTTPHeaderField: "Authorization"), "Bearer t")
        XCTAssertEqual(request.url?.absoluteString, "http://h/orders/1")
    }

    func test_retrying_carriesTheAttemptErrorAndDelay() async throws {
        let monitor = RecordingMonitor()
        let log = Recorder<String>()
        let transport = sequencedStub([HTTPResponse(statusCode: 503), ok])
        let retrier = ScriptedRetrier(name: "r", decision: .retry(after: .milliseconds(3)), log: log)
        _ = try await monitoredClient(transport, monitors: [monitor], retriers: [retrier]).send(Request<Order>(.get, "orders/1")).value
        guard let event = monitor.events.first(where: { $0.kind == .retrying }) else {
            return XCTFail("expected a retrying event, got \(monitor.labels)")
        }
        let (request, attempt, error, delay) = (event.request, event.attempt, event.error, event.delay)
        XCTAssertEqual(request.description, "GET http://h/orders/1")
        XCTAssertEqual(attempt, 1)
        XCTAssertEqual((error as? APIError)?.statusCode, 503)
        XCTAssertEqual(delay, .milliseconds(3))
    }

    func test_succeeded_carriesTheResponse() async throws {
        let monitor = RecordingMonitor()
        _ = try await monitoredClient(constantStub(ok), monitors: [monitor]).send(Request<Order>(.get, "orders/1")).value
        guard let matched = monitor.events.last, matched.kind == .succeeded else {
            return XCTFail("expected succeeded last, got \(monitor.labels)")
        }
        let response = matched.response!
        let duration = matched.duration!
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.body, Data(Fixtures.orderJSON.utf8))
        XCTAssertGreaterThanOrEqual(duration, .zero)
    }

    func test_everyEvent_namesTheSameCall() async throws {
        let monitor = RecordingMonitor()
        let transport = sequencedStub([HTTPResponse(statusCode: 503), ok])
        _ = try await monitoredClient(transport, monitors: [monitor], retriers: [fastRetryPolicy]).send(Request<Order>(.get, "orders/1")).value
        XCTAssertEqual(Set(monitor.events.map(\.request)), [summary(.get, "orders/1")])
    }

    // MARK: Ordering

    func test_monitors_areCalledInTheOrderListed() async throws {
        let log = Recorder<String>()
        let first = RecordingMonitor { log.append("A " + RecordingMonitor.label($0)) }
        let second = RecordingMonitor { log.append("B " + RecordingMonitor.label($0)) }
        _ = try await monitoredClient(constantStub(ok), monitors: [first, second]).send(Request<Order>(.get, "orders/1")).value
        XCTAssertEqual(log.events, [
            "A started GET http://h/orders/1", "B started GET http://h/orders/1", "A attemptStarted 1", "B attemptStarted 1",
            "A succeeded 200 attempts 1", "B succeeded 200 attempts 1",
        ])
    }

    func test_succeeded_isReportedBeforeThePromisesHandlersRun() async throws {
        let monitor = RecordingMonitor()
        let seenInHandler = Recorder<[String]>()
        let promise = try monitoredClient(constantStub(ok), monitors: [monitor]).send(Request<Order>(.get, "orders/1"))
        let observed = promise.success { _ in seenInHandler.append(monitor.labels) }
        _ = try await observed.value
        XCTAssertEqual(seenInHandler.events, [["started GET http://h/orders/1", "attemptStarted 1", "succeeded 200 attempts 1"]])
    }

    func test_failed_isReportedBeforeThePromisesHandlersRun() async throws {
        let monitor = RecordingMonitor()
        let seenInHandler = Recorder<[String]>()
        let promise = try monitoredClient(constantStub(HTTPResponse(statusCode: 404)), monitors: [monitor]).send(Request<Order>(.get, "orders/1"))
        let observed = promise.failure { _, _ in seenInHandler.append(monitor.labels) }
        _ = await awaitError(observed)
        XCTAssertEqual(seenInHandler.events, [["started GET http://h/orders/1", "attemptStarted 1", "failed attempts 1"]])
    }

    func test_invalidRequestFailure_isReportedBeforeSendReturns() throws {
        let monitor = RecordingMonitor()
        let promise = try monitoredClient(constantStub(ok), monitors: [monitor]).send(Request<Order>("BAD METHOD", "orders/1"))
        XCTAssertEqual(monitor.labels, ["started BAD METHOD http://h/orders/1", "failed attempts 0"])
        XCTAssertEqual(promise.state, .rejected)
    }
}
