@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// Adapters: when they run, in what order, what they change, and what a throwing one does.
final class InterceptorClientTests: XCTestCase {

    private let ok = HTTPResponse.json(Fixtures.orderJSON)

    private func send(
        through transport: StubTransport,
        adapters: [any RequestAdapter],
        retriers: [any RequestRetrier] = []
    ) async throws -> Order {
        let client = try makeClient(transport: transport, retriers: retriers) { $0.adapters = adapters }
        return try await client.send(Request<Order>(.get, "orders/1")).value
    }

    // MARK: Order and timing

    func test_adapters_runInOrderBeforeEachAttempt() async throws {
        let log = Recorder<String>()
        let transport = sequencedStub([HTTPResponse(statusCode: 503), ok])
        _ = try await send(
            through: transport,
            adapters: [LoggingAdapter(name: "first", log: log), LoggingAdapter(name: "second", log: log)],
            retriers: [fastRetryPolicy]
        )
        XCTAssertEqual(log.events, ["first 1", "second 1", "first 2", "second 2"])
    }

    func test_eachAdapter_seesThePreviousAdaptersChanges() async throws {
        let log = Recorder<String>()
        let transport = constantStub(ok)
        _ = try await send(through: transport, adapters: [LoggingAdapter(name: "first", log: log), LoggingAdapter(name: "second", log: log)])
        XCTAssertEqual(onlyRequest(transport)?.value(forHTTPHeaderField: "X-Adapted-By"), "first,second")
    }

    func test_retry_isAdaptedAfreshFromTheBuiltRequest() async throws {
        let log = Recorder<String>()
        let transport = sequencedStub([HTTPResponse(statusCode: 503), ok])
        _ = try await send(through: transport, adapters: [LoggingAdapter(name: "only", log: log)], retriers: [fastRetryPolicy])
        XCTAssertEqual(transport.requests.map { $0.value(forHTTPHeaderField: "X-Adapted-By") }, ["only", "only"])
    }

    func test_adapter_isToldWhichCallItAdapts() async throws {
        let seen = Recorder<String>()
        struct Inspecting: RequestAdapter {
            let seen: Recorder<String>
            func adapt(_ request: URLRequest, context: AttemptContext) async throws -> URLRequest {
                seen.append("\(context.request) attempt \(context.attempt)")
                return request
            }
        }
        _ = try await send(through: constantStub(ok), adapters: [Inspecting(seen: seen)])
        XCTAssertEqual(seen.events, ["GET http://h/orders/1 attempt 1"])
    }

    func test_retrier_receivesTheAdaptedRequest() async throws {
        let seen = Recorder<String>()
        struct Inspecting: RequestRetrier {
            let seen: Recorder<String>
            func retry(_ request: URLRequest, failedWith error: any Error, context: AttemptContext) async -> RetryDecision {
                seen.append(request.value(forHTTPHeaderField: "Authorization") ?? "none")
                return .retry(after: .zero)
            }
        }
        let transport = sequencedStub([HTTPResponse(statusCode: 503), ok])
        _ = try await send(through: transport, adapters: [BearerTokenAdapter { "t" }], retriers: [Inspecting(seen: seen)])
        XCTAssertEqual(seen.events, ["Bearer t"])
    }

    // MARK: HeadersAdapter

    func test_headersAdapter_setsFixedHeaders() async throws {
        let transport = constantStub(ok)
        _ = try await send(through: transport, adapters: [HeadersAdapter(["X-Session-Token": "s-1", "X-Client": "tests"])])
        let request = onlyRequest(transport)
        XCTAssertEqual(request?.value(forHTTPHeaderField: "X-Session-Token"), "s-1")
        XCTAssertEqual(request?.value(forHTTPHeaderField: "X-Client"), "tests")
    }

    func test_headersAdapter_replacesTheBuiltUserAgent() async throws {
        let transport = constantStub(ok)
        _ = try await send(through: transport, adapters: [HeadersAdapter(["User-Agent": "MyApp/2.0"])])
        XCTAssertEqual(onlyRequest(transport)?.value(forHTTPHeaderField: "User-Agent"), "MyApp/2.0")
    }

    func test_headersAdapter_readsItsValuesAtEachAttempt() async throws {
        let calls = Counter()
        let transport = sequencedStub([HTTPResponse(statusCode: 503), ok])
        _ = try await send(
            through: transport,
            adapters: [HeadersAdapter { ["X-Session-Token": "s-\(calls.increment())"] }],
            retriers: [fastRetryPolicy]
        )
        XCTAssertEqual(transport.requests.map { $0.value(forHTTPHeaderField: "X-Session-Token") }, ["s-1", "s-2"])
    }

    // MARK: BearerTokenAdapter

    func test_bearerTokenAdapter_setsAuthorizationBearer() async throws {
        let transport = constantStub(ok)
        _ = try await send(through: transport, adapters: [BearerTokenAdapter { "t" }])
        XCTAssertEqual(onlyRequest(transport)?.value(forHTTPHeaderField: "Authorization"), "Bearer t")
    }

    func test_bearerTokenAdapter_nilToken_sendsNoAuthorization() async throws {
        let transport = constantStub(ok)
        _ = try await send(through: transport, adapters: [BearerTokenAdapter { nil }])
        XCTAssertNil(onlyRequest(transport)?.value(forHTTPHeaderField: "Authorization"))
    }

    func test_bearerTokenAdapter_picksUpARefreshedTokenOnRetry() async throws {
        let calls = Counter()
        let transport = sequencedStub([HTTPResponse(statusCode: 503), ok])
        _ = try await send(through: transport, adapters: [BearerTokenAdapter { "t\(calls.increment())" }], retriers: [fastRetryPolicy])
        XCTAssertEqual(transport.requests.map { $0.value(forHTTPHeaderField: "Authorization") }, ["Bearer t1", "Bearer t2"])
    }

    // MARK: Throwing adapters

    func test_throwingAdapter_failsTheCallWithExactlyThatErrorAndSendsNothing() async throws {
        let transport = constantStub(ok)
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy]) {
            $0.adapters = [BearerTokenAdapter { throw AdapterFailure(code: 7) }]
        }
        let error = await awaitError(client.send(Request<Order>(.get, "orders/1")))
        XCTAssertEqual(error as? AdapterFailure, AdapterFailure(code: 7))
        XCTAssertEqual(transport.requests.count, 0)
    }

    func test_throwingAdapter_stopsTheAdaptersAfterIt() async throws {
        let log = Recorder<String>()
        let client = try makeClient(transport: constantStub(ok)) {
            $0.adapters = [
                LoggingAdapter(name: "before", log: log),
                HeadersAdapter { throw AdapterFailure(code: 1) },
                LoggingAdapter(name: "after", log: log),
            ]
        }
        _ = await awaitError(client.send(Request<Order>(.get, "orders/1")))
        XCTAssertEqual(log.events, ["before 1"])
    }

    func test_throwingAdapter_failsTheCallAsRejectedNotCancelled() async throws {
        let client = try makeClient(transport: constantStub(ok)) { $0.adapters = [HeadersAdapter { throw AdapterFailure(code: 2) }] }
        let promise = client.send(Request<Order>(.get, "orders/1"))
        _ = await awaitError(promise)
        XCTAssertEqual(promise.state, .rejected)
    }
}
