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
}
