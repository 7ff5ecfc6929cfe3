import BatonSupport
@testable import BatonPromise
@testable import BatonClient
import Foundation
import TestSupport
import XCTest

/// Cancelling a call on the wire: the promise settles at once, the connection is closed, and the
/// server abandons the work (DemoServer logs "abandoned: the client closed the connection during
/// the delay" when the peer hangs up while a `delay` fault holds the response). The delays are the
/// longest there is (300 s), so only a hang-up can end them within a test: a busy machine may take
/// its time to cancel, and the response still cannot come first. Waits are hang guards (30 s).
final class CancellationIntegrationTests: IntegrationTestCase {
    /// Sends `endpoint` and returns once the server has started handling it (counted it for
    /// `route`), so that a cancel reaches a request the server is working on.
    private func sendAndWaitUntilTheServerHasIt<E: Endpoint>(
        _ endpoint: E, route: String, through client: Client? = nil
    ) async throws -> Promise<E.Response> {
        let promise = (client ?? self.client).send(endpoint)
        try await waitUntilServerCounts(1, for: route)
        return promise
    }

    /// Handlers run on the thread that settles the promise, and `cancel()` settles it: the
    /// failure handler has run by the time `cancel()` returns, long before the server notices.
    func test_cancellingADelayedRequest_settlesBeforeCancelReturns_andTheServerAbandonsIt() async throws {
        let abandoned = serverLog.expectLine(containing: "abandoned")
        let cancelled = Recorder<Bool>()
        let promise = try await sendAndWaitUntilTheServerHasIt(GetOrder(id: 1, fault: "delay=300s"), route: "GET /orders/:id")
        promise.failure { _, isCancelled in cancelled.append(isCancelled) }

        promise.cancel()

        XCTAssertEqual(cancelled.events, [true])
        XCTAssertEqual(promise.state, .cancelled)
        await fulfillment(of: [abandoned], timeout: 30)
        XCTAssertEqual(serverLog.all.filter { $0.contains("abandoned") }.count, 1)
        XCTAssertTrue(serverLog.all.contains { $0.contains(#""GET /orders/1 HTTP/1.1" -"#) && $0.contains("abandoned") }, "\(serverLog.all)")
    }

    func test_awaitingACancelledCall_throwsCancellationError() async throws {
        let abandoned = serverLog.expectLine(containing: "abandoned")
        let promise = try await sendAndWaitUntilTheServerHasIt(GetOrder(id: 1, fault: "delay=300s"), route: "GET /orders/:id")

        promise.cancel()

        do {
            _ = try await promise.value
            XCTFail("a cancelled call fulfilled")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(type(of: error)): \(error)")
        }
        // The server is done with the request before the next test starts: its "abandoned" line
        // cannot land in that test's log.
        await fulfillment(of: [abandoned], timeout: 30)
    }

    func test_cancellingADelayedPost_neverCreatesTheReview() async throws {
        let abandoned = serverLog.expectLine(containing: "abandoned")
        let promise = try await sendAndWaitUntilTheServerHasIt(
            Reviews.post(facilityID: 1, content: "取り消し", rating: 5, headers: ["X-Demo-Fault": "delay=300s"]),
            route: "POST /facilities/:facility_id/reviews"
        )

        promise.cancel()

        await fulfillment(of: [abandoned], timeout: 30)
        let error = await apiError(client.send(Reviews.get(id: 1)))
        XCTAssertEqual(error?.statusCode, 404)
        XCTAssertEqual(serverLog.all.filter { $0.contains(#""POST /facilities/1/reviews HTTP/1.1" -"#) && $0.contains("abandoned") }.count, 1,
                       "\(serverLog.all)")
    }

    func test_cancelledCall_isReportedToMonitorsAsFailedCancelled_andItsRequestIsStopped() async throws {
        let abandoned = serverLog.expectLine(containing: "abandoned")
        let reported = expectation(description: "a failed event")
        let events = EventRecorder { event in
            if event.kind == .failed { reported.fulfill() }
        }
        let client = try makeClient { $0.monitors = [events] }
        let promise = try await sendAndWaitUntilTheServerHasIt(GetOrder(id: 1, fault: "delay=300s"), route: "GET /orders/:id", through: client)

        promise.cancel()

        await fulfillment(of: [reported], timeout: 30)
        XCTAssertEqual(events.labels, ["started GET \(origin)/orders/1", "attempt 1", "failed after 1 (cancelled)"])
        // Only the client hanging up ends the server's 300 s hold within this wait.
        await fulfillment(of: [abandoned], timeout: 30)
    }

    func test_cancellingDuringTheWaitBeforeARetry_sendsNoFurtherAttempt() async throws {
        let retrying = expectation(description: "the retry is scheduled")
        let secondAttempt = expectation(description: "a second attempt")
        secondAttempt.isInverted = true
        let events = EventRecorder { event in
            if event.kind == .retrying { retrying.fulfill() }
            if event.kind == .attemptStarted, event.attempt == 2 { secondAttempt.fulfill() }
        }
        let client = try makeClient { $0.retryPolicy = .default; $0.monitors = [events] }
        let promise = client.send(GetOrder(id: 1, fault: "status=503;retry-after=2"))
        await fulfillment(of: [retrying], timeout: 30)

        promise.cancel()

        // The retry was due two seconds after the first attempt failed: a busy machine may pause
        // this test between the retry's scheduling and the cancel, but not for that long.
        await fulfillment(of: [secondAttempt], timeout: 2.5)
        XCTAssertEqual(promise.state, .cancelled)
        let requests = try await requestCount("GET /orders/:id")
        XCTAssertEqual(requests, 1)
    }

    /// `ClientMonitor`: "A cancelled call is reported as `failed` with `APIError.cancelled` once
    /// the request has stopped". When the cancel comes during the wait before a retry, the
    /// scheduled attempt finds the promise settled and returns without reporting anything.
    func test_cancellingDuringTheWaitBeforeARetry_isReportedToMonitorsAsFailedCancelled() async throws {
        let retrying = expectation(description: "the retry is scheduled")
        let reported = expectation(description: "a failed event")
        let events = EventRecorder { event in
            if event.kind == .retrying { retrying.fulfill() }
            if event.kind == .failed { reported.fulfill() }
        }
        // A wait no pause of the machine reaches: the cancel comes during it, whenever it comes.
        let client = try makeClient { $0.retryPolicy = RetryPolicy(maximumDelay: .seconds(3600)); $0.monitors = [events] }
        let promise = client.send(GetOrder(id: 1, fault: "status=503;retry-after=3600"))
        await fulfillment(of: [retrying], timeout: 30)

        promise.cancel()

        await fulfillment(of: [reported], timeout: 30)
        XCTAssertEqual(events.labels, [
            "started GET \(origin)/orders/1", "attempt 1", "retrying after 1 (status 503)", "failed after 1 (cancelled)",
        ])
        XCTAssertEqual(events.events.first { $0.kind == .retrying }?.delay, .seconds(3600))
    }
}
