import Baton
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// What a server that misbehaves on purpose gets from Baton: a settled promise with a clear error,
/// never a hang, a crash or a leaked secret.
final class HostileServerTests: IntegrationTestCase {
    /// The error `promise` settles with. Waiting is bounded (10 s, against answers that take
    /// milliseconds), so a promise that never settles fails the test instead of hanging the suite.
    private func settledError<T>(_ promise: Promise<T>, file: StaticString = #filePath, line: UInt = #line) async -> APIError? {
        let settled = expectation(description: "the call settled")
        let outcome = Recorder<Result<T, any Error>>()
        promise.then { result in
            outcome.append(result)
            settled.fulfill()
        }
        await fulfillment(of: [settled], timeout: 10)
        promise.cancel()
        guard case .failure(let error)? = outcome.events.first else {
            XCTFail("expected a failure, got \(String(describing: outcome.events.first))", file: file, line: line)
            return nil
        }
        return error as? APIError
    }

    // MARK: Authentication challenges

    /// With no handler for challenges, FoundationNetworking left a 401 carrying
    /// `WWW-Authenticate: Basic` pending forever. Baton sends credentials itself (adapters), so
    /// every challenge is answered with none and the 401 completes the call.
    func test_401WithAChallenge_completesTheCall_forEverySchemeOnGETAndPOST() async {
        let client = makeClient { $0.retriers = [] }
        for scheme in ["Basic", "Digest", "Negotiate", "NTLM", "Bearer"] {
            let fault = "status=401;challenge=\(scheme)"
            let get = await settledError(client.send(GetOrder(id: 1, fault: fault)))
            XCTAssertEqual(get?.statusCode, 401, "GET challenged with \(scheme): \(String(describing: get))")

            let post = await settledError(client.send(Reviews.post(facilityID: 1, content: "良い", rating: 5, headers: ["X-Demo-Fault": fault])))
            XCTAssertEqual(post?.statusCode, 401, "POST challenged with \(scheme)")
        }
    }

    // MARK: The overall deadline

    /// The idle timeout restarts with every byte, so a slow server could hold a call as long as it
    /// liked; the deadline bounds the whole call.
    func test_deadline_failsACallTheServerHoldsBack_andSaysSo() async {
        let client = makeClient { $0.retriers = []; $0.deadline = .milliseconds(500) }

        let error = await settledError(client.send(GetOrder(id: 1, fault: "delay=30s")))

        XCTAssertEqual(error?.kind, .deadlineExceeded)
        XCTAssertEqual(error?.deadline, .milliseconds(500))
        XCTAssertEqual(error?.description, "GET /orders/1 did not finish within its deadline of 0.5 seconds; the request was cancelled.")
    }

    func test_deadline_endsAWaitBeforeARetry() async {
        let client = makeClient { $0.retriers = [RetryPolicy.default]; $0.deadline = .milliseconds(500) }

        let error = await settledError(client.send(GetOrder(id: 1, fault: "status=503;retry-after=30")))

        XCTAssertEqual(error?.kind, .deadlineExceeded)
        let requests = try? await requestCount("GET /orders/:id")
        XCTAssertEqual(requests, 1, "no second attempt after the deadline")
    }

    func test_deadline_doesNotTouchACallThatFinishesInTime() async throws {
        let client = makeClient { $0.deadline = .seconds(30) }

        let order = try await client.send(GetOrder(id: 1)).value

        XCTAssertEqual(order, Fixtures.order(1))
    }
}
