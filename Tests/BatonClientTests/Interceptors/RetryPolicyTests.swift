@testable import BatonWire
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// RetryPolicy's decisions, asked directly through `decision(method:error:context:now:)`.
final class RetryPolicyClientTests: XCTestCase {
    private let request = summary(.get, "orders/1")
    private let policy = RetryPolicy()
    /// 2023-11-14 22:13:20 GMT.
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func statusFailure(_ statusCode: Int, headers: [String: String] = [:]) -> (APIError, HTTPResponse) {
        let response = HTTPResponse(statusCode: statusCode, headers: headers)
        return (.unacceptableStatus(request, response, message: nil), response)
    }

    /// The context of attempt number `attempt`, every earlier one having been a transient-failure retry.
    private func context(_ attempt: Int, response: HTTPResponse? = nil) -> AttemptContext {
        AttemptContext(request: request, attempt: attempt, response: response, retries: [.transientFailure: attempt - 1])
    }

    /// The decision for a failed attempt with `statusCode`.
    private func decision(
        _ policy: RetryPolicy? = nil, method: HTTPMethod = .get, status statusCode: Int,
        headers: [String: String] = [:], attempt: Int = 1
    ) -> RetryDecision {
        let (error, response) = statusFailure(statusCode, headers: headers)
        return (policy ?? self.policy).decision(
            method: method, error: error, context: context(attempt, response: response), now: now
        )
    }

    /// The decision for a failed attempt with `error` and no response.
    private func decision(_ policy: RetryPolicy? = nil, method: HTTPMethod = .get, error: any Error, attempt: Int = 1) -> RetryDecision {
        (policy ?? self.policy).decision(method: method, error: error, context: context(attempt), now: now)
    }

    private func isRetry(_ decision: RetryDecision) -> Bool {
        decision.retries
    }

    // MARK: What is retried

    func test_retryableStatuses_areRetriedForGET() {
        for status in [408, 429, 500, 502, 503, 504] {
            XCTAssertTrue(isRetry(decision(status: status)), "status \(status)")
        }
    }

    func test_defaultRetryableStatuses_areExactlyTheSix() {
        XCTAssertEqual(RetryPolicy.defaultRetryableStatusCodes, [408, 429, 500, 502, 503, 504])
    }

    func test_otherErrorStatuses_areNotRetried() {
        for status in [400, 401, 403, 404, 409, 422, 501, 505] {
            XCTAssertEqual(decision(status: status), .doNotRetry, "status \(status)")
        }
    }

    func test_listedURLErrorCodes_areRetriedAsTransportErrors() {
        let codes: [URLError.Code] = [
            .timedOut, .networkConnectionLost, .cannotConnectToHost, .dnsLookupFailed, .cannotFindHost,
            .notConnectedToInternet, .badServerResponse,
        ]
        for code in codes {
            XCTAssertTrue(isRetry(decision(error: APIError.transport(request, URLError(code)))), "code \(code.rawValue)")
        }
    }

    func test_listedURLErrorCodes_areRetriedAsBareURLErrors() {
        XCTAssertTrue(isRetry(decision(error: URLError(.timedOut))))
        XCTAssertTrue(isRetry(decision(error: URLError(.networkConnectionLost))))
    }

    func test_unlistedURLErrorCodes_areNotRetried() {
        let codes: [URLError.Code] = [
            .badURL, .unsupportedURL, .cancelled, .secureConnectionFailed, .serverCertificateUntrusted,
            .userAuthenticationRequired,
        ]
        for code in codes {
            XCTAssertEqual(decision(error: APIError.transport(request, URLError(code))), .doNotRetry, "code \(code.rawValue)")
        }
    }

    func test_idempotentMethods_areRetried() {
        for method: HTTPMethod in [.get, .head, .put, .delete, .options, "TRACE"] {
            XCTAssertTrue(isRetry(decision(method: method, status: 503)), "method \(method)")
        }
    }

    func test_POST_isNeverRetried() {
        XCTAssertEqual(decision(method: .post, status: 503), .doNotRetry)
        XCTAssertEqual(decision(method: .post, status: 503, headers: ["Retry-After": "1"]), .doNotRetry)
        XCTAssertEqual(decision(method: .post, error: APIError.transport(request, URLError(.timedOut))), .doNotRetry)
    }

    func test_PATCH_isNotRetried() {
        XCTAssertEqual(decision(method: .patch, status: 503), .doNotRetry)
    }

    func test_decodingFailure_isNotRetried() {
        let error = APIError.decodingFailed(request, HTTPResponse.json("{}"), type: "Order", codingPath: "", reason: "r")
        XCTAssertEqual(decision(error: error), .doNotRetry)
    }

    func test_unacceptableContentType_isNotRetried() {
        let error = APIError.unacceptableContentType(request, HTTPResponse(statusCode: 200), contentType: "text/html", acceptable: [])
        XCTAssertEqual(decision(error: error), .doNotRetry)
    }

    func test_invalidRequest_isNotRetried() {
        XCTAssertEqual(decision(error: APIError.invalidRequest(request, field: "body", reason: "r")), .doNotRetry)
    }

    func test_cancellation_isNotRetried() {
        XCTAssertEqual(decision(error: APIError.cancelled(request)), .doNotRetry)
        XCTAssertEqual(decision(error: CancellationError()), .doNotRetry)
    }

    func test_otherErrors_areNotRetried() {
        XCTAssertEqual(decision(error: AdapterFailure(code: 1)), .doNotRetry)
    }

    // MARK: Limit

    func test_defaultLimit_isTwoRetries() {
        XCTAssertEqual(RetryPolicy.defaultRetryLimit, 2)
        XCTAssertTrue(isRetry(decision(status: 503, attempt: 1)))
        XCTAssertTrue(isRetry(decision(status: 503, attempt: 2)))
    }

    func test_thirdFailedAttempt_withDefaultLimit_isNotRetried() {
        XCTAssertEqual(decision(status: 503, attempt: 3), .doNotRetry)
    }

    func test_limitZero_neverRetries() {
        XCTAssertEqual(decision(RetryPolicy(retryLimit: 0), status: 503, attempt: 1), .doNotRetry)
    }

    func test_negativeLimit_isClampedToZero() {
        XCTAssertEqual(RetryPolicy(retryLimit: -3).retryLimit, 0)
    }

    func test_limitWinsOverRetryAfter() {
        XCTAssertEqual(decision(status: 503, headers: ["Retry-After": "1"], attempt: 3), .doNotRetry)
    }

    // MARK: Backoff

    func test_firstRetryDelay_isWithin250To500Milliseconds() {
        for _ in 0..<200 {
            guard let delay = retryDelay(decision(status: 503, attempt: 1)) else { return }
            XCTAssertTrue((Duration.milliseconds(250)...Duration.milliseconds(500)).contains(delay), "\(delay)")
        }
    }

    func test_secondRetryDelay_isWithin500To1000Milliseconds() {
        for _ in 0..<200 {
            guard let delay = retryDelay(decision(status: 503, attempt: 2)) else { return }
            XCTAssertTrue((Duration.milliseconds(500)...Duration.milliseconds(1000)).contains(delay), "\(delay)")
        }
    }

    func test_backoff_isJittered() {
        let delays = Set((0..<50).compactMap { _ in retryDelay(decision(status: 503, attempt: 1)) })
        XCTAssertGreaterThan(delays.count, 1)
    }

    func test_backoff_isCappedByMaximumDelay() {
        let policy = RetryPolicy(retryLimit: 5, baseDelay: .seconds(30), maximumDelay: .seconds(10))
        XCTAssertEqual(decision(policy, status: 503, attempt: 1), .retry(after: .seconds(10), cause: .transientFailure))
        XCTAssertEqual(decision(policy, status: 503, attempt: 4), .retry(after: .seconds(10), cause: .transientFailure))
    }

    func test_backoff_doublesForEachRetry() {
        let policy = RetryPolicy(retryLimit: 5, baseDelay: .milliseconds(100))
        for _ in 0..<50 {
            guard let delay = retryDelay(decision(policy, status: 503, attempt: 4)) else { return }
            XCTAssertTrue((Duration.milliseconds(400)...Duration.milliseconds(800)).contains(delay), "\(delay)")
        }
    }

    // MARK: Retry-After

    func test_retryAfterSeconds_isExactlyThatDelay() {
        XCTAssertEqual(decision(status: 503, headers: ["Retry-After": "3"]), .retry(after: .seconds(3), cause: .transientFailure))
    }

    func test_retryAfterSeconds_isReadWhateverTheHeaderCaseAndSpaces() {
        XCTAssertEqual(decision(status: 429, headers: ["retry-after": " 3 "]), .retry(after: .seconds(3), cause: .transientFailure))
    }

    func test_retryAfterZero_retriesAtOnce() {
        XCTAssertEqual(decision(status: 503, headers: ["Retry-After": "0"]), .retry(after: .zero, cause: .transientFailure))
    }

    func test_retryAfterHTTPDate_fiveSecondsAhead_isFiveSeconds() {
        guard let delay = retryDelay(decision(status: 503, headers: ["Retry-After": "Tue, 14 Nov 2023 22:13:25 GMT"])) else { return }
        XCTAssertTrue((Duration.milliseconds(4999)...Duration.milliseconds(5001)).contains(delay), "\(delay)")
    }

    func test_retryAfterHTTPDateInThePast_isZero() {
        XCTAssertEqual(decision(status: 503, headers: ["Retry-After": "Tue, 14 Nov 2023 22:00:00 GMT"]), .retry(after: .zero, cause: .transientFailure))
    }

    func test_retryAfterSeconds_isCappedAtMaximumDelay() {
        XCTAssertEqual(decision(status: 503, headers: ["Retry-After": "999999"]), .retry(after: RetryPolicy.defaultMaximumDelay, cause: .transientFailure))
        XCTAssertEqual(RetryPolicy.defaultMaximumDelay, .seconds(10))
    }

    func test_retryAfterHTTPDate_isCappedAtMaximumDelay() {
        XCTAssertEqual(decision(status: 503, headers: ["Retry-After": "Wed, 15 Nov 2023 22:13:20 GMT"]), .retry(after: .seconds(10), cause: .transientFailure))
    }

    func test_negativeRetryAfter_isIgnoredForBackoff() {
        guard let delay = retryDelay(decision(status: 503, headers: ["Retry-After": "-5"])) else { return }
        XCTAssertTrue((Duration.milliseconds(250)...Duration.milliseconds(500)).contains(delay), "\(delay)")
    }

    func test_garbageRetryAfter_isIgnoredForBackoff() {
        guard let delay = retryDelay(decision(status: 503, headers: ["Retry-After": "soon"])) else { return }
        XCTAssertTrue((Duration.milliseconds(250)...Duration.milliseconds(500)).contains(delay), "\(delay)")
    }

    func test_retryAfterOnANonRetryableStatus_isIgnored() {
        XCTAssertEqual(decision(status: 404, headers: ["Retry-After": "1"]), .doNotRetry)
    }

    // MARK: HTTPDate

    func test_httpDate_parsesIMFFixdate() {
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), Date(timeIntervalSince1970: 784_111_777))
    }

    func test_httpDate_parsesObsoleteRFC850Form() {
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), Date(timeIntervalSince1970: 784_111_777))
    }

    func test_httpDate_parsesObsoleteAsctimeForm() {
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), Date(timeIntervalSince1970: 784_111_777))
    }

    func test_httpDate_rejectsGarbage() {
        XCTAssertNil(HTTPDate.parse("next tuesday"))
    }

    // MARK: The retrier entry point

    func test_retry_readsTheMethodFromTheRequest() async {
        var post = URLRequest(url: URL(string: "http://h/orders")!)
        post.httpMethod = "POST"
        let (error, response) = statusFailure(503)
        let context = AttemptContext(request: request, attempt: 1, response: response)
        let decision = await policy.retry(post, failedWith: error, context: context)
        XCTAssertEqual(decision, .doNotRetry)
    }

    func test_default_isThePolicyWithEveryDefault() {
        let policy = RetryPolicy.default
        XCTAssertEqual(policy.retryLimit, 2)
        XCTAssertEqual(policy.baseDelay, .milliseconds(500))
        XCTAssertEqual(policy.maximumDelay, .seconds(10))
        XCTAssertEqual(policy.retryableMethods, [.get, .head, .put, .delete, .options, "TRACE"])
    }
}
