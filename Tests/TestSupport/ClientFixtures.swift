import BatonSupport
import BatonPromise
import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

// Shared helpers of the client tests: the API's values, fixed responses, and the stubs, monitors,
// adapters and retriers the tests drive the client with.

// MARK: - Models

/// A review; its JSON uses snake_case keys (`facility_id`).
package struct Review: Codable, Equatable, Sendable {
    package var id: Int
    package var facilityId: Int
    package var content: String
    package var rating: Int

    package init(id: Int, facilityId: Int, content: String, rating: Int) {
        self.id = id
        self.facilityId = facilityId
        self.content = content
        self.rating = rating
    }
}

/// The body of a review post.
package struct NewReview: Codable, Equatable, Sendable {
    package var facilityId: Int
    package var content: String
    package var rating: Int

    package init(facilityId: Int, content: String, rating: Int) {
        self.facilityId = facilityId
        self.content = content
        self.rating = rating
    }
}

/// A token response, as an OAuth server sends it.
package struct TokenResponse: Codable, Equatable, Sendable {
    package var accessToken: String
    package var expiresIn: Int

    package init(accessToken: String, expiresIn: Int) {
        self.accessToken = accessToken
        self.expiresIn = expiresIn
    }
}

/// A value whose encoding always fails.
package struct Unencodable: Encodable, Sendable {
    package init() {}

    package func encode(to encoder: any Encoder) throws {
        throw EncodingFailure()
    }
}

/// The error ``Unencodable`` throws.
package struct EncodingFailure: Error, Equatable {
    package init() {}
}

/// Fixed values the client tests answer with and expect.
package enum Fixtures {
    package static let orderJSON = #"{"id":1,"name":"山田","ordersum":2,"subtotal":1200,"bikou":"急ぎ"}"#
    package static let order = Order(id: 1, name: "山田", ordersum: 2, subtotal: 1200, bikou: "急ぎ")

    package static let reviewJSON = #"{"id":9,"facility_id":1,"content":"良い","rating":5}"#
    package static let review = Review(id: 9, facilityId: 1, content: "良い", rating: 5)

    /// A decoder for the API's snake_case keys.
    package static func snakeCaseDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return decoder
    }
}

/// An endpoint whose response is the body as text (the `Response == String` defaults).
package struct TextEndpoint: Endpoint {
    package init() {}
    package typealias Response = String
    package var path: EndpointPath { "greeting" }
}

/// An error an adapter throws, compared by value.
package struct AdapterFailure: Error, Equatable {
    package var code: Int

    package init(code: Int) {
        self.code = code
    }
}

/// A monitor that keeps every event, in order, and calls `onEvent` after recording each.
package final class RecordingMonitor: ClientMonitor {
    private let storage = Locked<[ClientEvent]>([])
    private let onEvent: @Sendable (ClientEvent) -> Void

    package init(onEvent: @escaping @Sendable (ClientEvent) -> Void = { _ in }) {
        self.onEvent = onEvent
    }

    package func receive(_ event: ClientEvent) {
        storage.withLock { $0.append(event) }
        onEvent(event)
    }

    package var events: [ClientEvent] {
        storage.withLock { $0 }
    }

    /// The events as short labels, such as `attemptStarted 1`.
    package var labels: [String] {
        events.map(Self.label)
    }

    package static func label(_ event: ClientEvent) -> String {
        switch event.kind {
        case .started: return "started \(event.request)"
        case .attemptStarted: return "attemptStarted \(event.attempt!)"
        case .retrying: return "retrying \(event.attempt!)"
        case .succeeded: return "succeeded \(event.response!.statusCode) attempts \(event.attempts!)"
        case .failed: return "failed attempts \(event.attempts!)"
        default: return "\(event.kind)"
        }
    }

    /// The error of the last `failed` event, if any.
    package var failedError: (any Error)? {
        for event in events.reversed() {
            if event.kind == .failed { return event.error }
        }
        return nil
    }
}

/// A retrier that logs "`name` `attempt`" and answers `decision`.
package struct ScriptedRetrier: RequestRetrier {
    package var name: String
    package var decision: RetryDecision
    package var log: Recorder<String>

    package init(name: String, decision: RetryDecision, log: Recorder<String>) {
        self.name = name
        self.decision = decision
        self.log = log
    }

    package func retry(_ request: URLRequest, failedWith error: any Error, context: AttemptContext) async -> RetryDecision {
        log.append("\(name) \(context.attempt)")
        return decision
    }
}

/// A retrier that answers what its closure returns.
package struct ClosureRetrier: RequestRetrier {
    package var decide: @Sendable (URLRequest, any Error, AttemptContext) async -> RetryDecision

    package init(_ decide: @escaping @Sendable (URLRequest, any Error, AttemptContext) async -> RetryDecision) {
        self.decide = decide
    }

    package func retry(_ request: URLRequest, failedWith error: any Error, context: AttemptContext) async -> RetryDecision {
        await decide(request, error, context)
    }
}

/// An adapter that logs "`name` `attempt`" and sets the header `X-Adapted-By` to the names of
/// the adapters that ran so far.
package struct LoggingAdapter: RequestAdapter {
    package var name: String
    package var log: Recorder<String>

    package init(name: String, log: Recorder<String>) {
        self.name = name
        self.log = log
    }

    package func adapt(_ request: URLRequest, context: AttemptContext) async throws -> URLRequest {
        log.append("\(name) \(context.attempt)")
        var request = request
        let before = request.value(forHTTPHeaderField: "X-Adapted-By").map { $0 + "," } ?? ""
        request.setValue(before + name, forHTTPHeaderField: "X-Adapted-By")
        return request
    }
}

/// A transport whose exchanges the test settles by hand, to drive progress and observe
/// cancellation.
package final class ManualTransport: Transport {
    package struct Exchange: Sendable {
        package let request: URLRequest
        /// What the client asked of the transport.
        package let options: TransferOptions
        package let progress: @Sendable (PromiseProgress) -> Void
        package let fulfill: @Sendable (HTTPResponse) -> Void
        package let reject: @Sendable (any Error) -> Void
        /// How often the exchange's cancel handler ran.
        package let cancellations: Counter
    }

    private let exchanges = Locked<[Exchange]>([])
    private let onSend: @Sendable (Int) -> Void

    /// `onSend` receives the number of exchanges so far, after each send. It runs inside `send`,
    /// before the client has subscribed to the returned promise: progress reported right then
    /// is held (the newest only) and handed to the client when it subscribes.
    package init(onSend: @escaping @Sendable (Int) -> Void = { _ in }) {
        self.onSend = onSend
    }

    package func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
        let promise = Promise<HTTPResponse> { progress, fulfill, reject, configure in
            let cancellations = Counter()
            configure.cancel = { cancellations.increment() }
            let exchange = Exchange(request: request, options: options, progress: progress,
                                    fulfill: fulfill, reject: reject, cancellations: cancellations)
            exchanges.withLock { $0.append(exchange) }
        }
        onSend(exchanges.withLock { $0.count })
        return promise
    }

    /// The `index`th exchange (0-based).
    package func exchange(_ index: Int) -> Exchange {
        exchanges.withLock { $0[index] }
    }

    package var count: Int {
        exchanges.withLock { $0.count }
    }
}

// MARK: - Clients and stubs

/// A client over `transport`. Retriers are none unless given, so that each test states them.
package func makeClient(
    baseURL: String = "http://h/",
    transport: any Transport,
    retriers: [any RequestRetrier] = [],
    configure: (inout Client.Configuration) -> Void = { _ in }
) throws -> Client {
    try Client(baseURL: URL(string: baseURL)!, transport: transport) { configuration in
        configuration.retryPolicy = nil
        configuration.retriers = retriers
        configure(&configuration)
    }
}

/// A retry policy with a 1 ms base delay, to keep retry tests fast.
package let fastRetryPolicy = RetryPolicy(baseDelay: .milliseconds(1))

/// A stub that answers with `answers` in order, repeating the last one.
package func sequencedStub(_ answers: [Result<HTTPResponse, URLError>]) -> StubTransport {
    let calls = Counter()
    return StubTransport { _, _ in
        let index = min(calls.increment(), answers.count) - 1
        return try answers[index].get()
    }
}

/// A stub that answers with `responses` in order, repeating the last one.
package func sequencedStub(_ responses: [HTTPResponse]) -> StubTransport {
    sequencedStub(responses.map { .success($0) })
}

/// A stub that always answers with `response`.
package func constantStub(_ response: HTTPResponse) -> StubTransport {
    StubTransport { _, _ in response }
}

/// Waits for `promise` and returns the error it failed with, or `nil` if it fulfilled.
package func awaitError<T>(_ promise: Promise<T>) async -> (any Error)? {
    do {
        _ = try await promise.value
        return nil
    } catch {
        return error
    }
}

/// A summary for `method` and `path` on `http://h/`, as the client makes it.
package func summary(_ method: HTTPMethod = .get, _ path: String) -> RequestSummary {
    RequestSummary(method: method, url: URL(string: "http://h/" + path), path: path)
}

// MARK: - Assertions

/// The `invalidRequest` fields of `error`, or a failure.
package func invalidRequestParts(
    _ error: (any Error)?, file: StaticString = #filePath, line: UInt = #line
) -> (request: RequestSummary, field: String, reason: String)? {
    guard let matched = error as? APIError, matched.kind == .invalidRequest else {
        XCTFail("expected APIError.invalidRequest, got \(String(describing: error))", file: file, line: line)
        return nil
    }
    let request = matched.request
    let field = matched.field!
    let reason = matched.reason!
    return (request, field, reason)
}

/// The delay of a `.retry` decision, or a failure.
package func retryDelay(
    _ decision: RetryDecision, file: StaticString = #filePath, line: UInt = #line
) -> Duration? {
    guard let delay = decision.delay else {
        XCTFail("expected .retry, got \(decision)", file: file, line: line)
        return nil
    }
    return delay
}

/// The only request `transport` received, or a failure.
package func onlyRequest(
    _ transport: StubTransport, file: StaticString = #filePath, line: UInt = #line
) -> URLRequest? {
    let requests = transport.requests
    guard requests.count == 1 else {
        XCTFail("expected exactly one request, got \(requests.count)", file: file, line: line)
        return nil
    }
    return requests[0]
}

/// Sends `endpoint` through a stub answering `response` and returns the request it received.
package func sentRequest<E: Endpoint>(
    _ endpoint: E,
    baseURL: String = "http://h/",
    response: HTTPResponse = .json(Fixtures.orderJSON),
    configure: (inout Client.Configuration) -> Void = { _ in }
) async throws -> URLRequest? {
    let transport = constantStub(response)
    let client = try makeClient(baseURL: baseURL, transport: transport, configure: configure)
    _ = try await client.send(endpoint).value
    return onlyRequest(transport)
}

/// Sends `endpoint`, which must fail, and returns the error and the stub's requests.
package func failedSend<E: Endpoint>(
    _ endpoint: E, configure: (inout Client.Configuration) -> Void = { _ in }
) async throws -> (error: (any Error)?, requests: [URLRequest]) {
    let transport = constantStub(.json(Fixtures.orderJSON))
    let client = try makeClient(transport: transport, configure: configure)
    let error = await awaitError(client.send(endpoint))
    return (error, transport.requests)
}
