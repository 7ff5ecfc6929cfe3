@testable import BatonSupport
@testable import BatonPromise
@testable import BatonClient
import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// The base of the integration tests: Baton's real `Client` (URLSession, libcurl on Linux) talking
/// to a real `DemoServer` over loopback sockets. No stub transport anywhere.
///
/// Each test class starts its server(s) once, on its first test, and stops them in its class
/// `tearDown`. Before every test the server is reset (`POST /_demo/reset`), the demo user logs in
/// (`POST /tokens`), and `client` is a fresh client that sends the token and retries quickly
/// (`RetryPolicy(baseDelay: .milliseconds(10))`).
class IntegrationTestCase: XCTestCase {
    /// The retry policy of `client`: the defaults, with a 10 ms base delay.
    static let fastRetries = RetryPolicy(baseDelay: .milliseconds(10))

    /// The class's main server, reset before each test.
    private(set) var server: DemoServer!
    /// What `server` logged (one line per request).
    private(set) var serverLog: ServerLog!
    /// The demo user's access token on `server`, fresh for this test.
    private(set) var token: String!
    /// A client of `server` that sends `token` in `Authorization` and retries with `fastRetries`.
    private(set) var client: Client!

    override func setUp() async throws {
        try await super.setUp()
        let fixture = try Self.fixture("A")
        server = fixture.server
        serverLog = fixture.log
        try await reset(server)
        serverLog.clear()
        token = try await login(on: server).token
        client = try makeClient()
    }

    override class func tearDown() {
        let prefix = "\(self)/"
        let stopping = fixtures.withLock { fixtures in
            let keys = fixtures.keys.filter { $0.hasPrefix(prefix) }
            return keys.compactMap { fixtures.removeValue(forKey: $0) }
        }
        for fixture in stopping { fixture.server.stop() }
        super.tearDown()
    }

    // MARK: - Servers

    /// A running server and its log.
    struct Fixture: Sendable {
        var server: DemoServer
        var log: ServerLog
    }

    private static let fixtures = Locked<[String: Fixture]>([:])

    /// Whether the suite runs over `https` (`BATON_TEST_TLS=1`, as `.ci/run` sets once): every
    /// fixture server then serves TLS with DemoServer's loopback test identity, whose root the
    /// environment must make trusted (`.ci/tls-suite` puts it in the system's bundle).
    static let overTLS = ProcessInfo.processInfo.environment["BATON_TEST_TLS"] == "1"

    /// The server of this test class called `name`, started on first use (and stopped by the
    /// class's `tearDown`). Tests needing two origins use "A" (the main one) and "B".
    static func fixture(_ name: String) throws -> Fixture {
        try fixtures.withLock { fixtures in
            let key = "\(self)/\(name)"
            if let fixture = fixtures[key] { return fixture }
            let log = ServerLog()
            let server = try DemoServer.start(configuration: .init(
                tokenLifetime: 60, maxBodyBytes: 64 << 20, seed: 0, idleTimeout: 5, tls: overTLS ? .loopback : nil,
                log: { log.append($0) }
            ))
            let fixture = Fixture(server: server, log: log)
            fixtures[key] = fixture
            return fixture
        }
    }

    /// `server`'s scheme, host and port, as a request's description names them:
    /// `"GET \(origin)/orders/7"`.
    var origin: String {
        var text = server.baseURL.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    // MARK: - Clients

    /// A client of `server` (the main one by default), sending `token` as a default
    /// `Authorization` header unless `authorized` is false, retrying with `fastRetries`;
    /// `configure` may change anything.
    func makeClient(
        of server: DemoServer? = nil, authorized: Bool = true,
        configure: (inout Client.Configuration) -> Void = { _ in }
    ) throws -> Client {
        let target = server ?? self.server!
        var configuration = Client.Configuration(baseURL: target.baseURL)
        if authorized, let token { configuration.headers["Authorization"] = "Bearer \(token)" }
        configuration.retryPolicy = Self.fastRetries
        configure(&configuration)
        return try Client(configuration: configuration)
    }

    /// A client without a token or retries, for the `/_demo/*` routes.
    private func demoClient(of server: DemoServer) throws -> Client {
        try Client(baseURL: server.baseURL) { $0.retryPolicy = nil }
    }

    /// `POST /_demo/reset`: back to the seed's data, no tokens, no stats.
    func reset(_ server: DemoServer) async throws {
        try await demoClient(of: server).send(Demo.reset).value
    }

    /// Logs the demo user in on `server` and returns the tokens.
    func login(on server: DemoServer) async throws -> Tokens {
        try await demoClient(of: server).send(Demo.login()).value
    }

    /// `GET /_demo/stats` of `server` (the main one by default).
    func stats(of server: DemoServer? = nil) async throws -> Stats {
        try await demoClient(of: server ?? self.server).send(Demo.stats).value
    }

    /// How many requests `server` counted for `route` (such as `GET /orders/:id`).
    func requestCount(_ route: String, on server: DemoServer? = nil) async throws -> Int {
        try await stats(of: server).requests[route] ?? 0
    }

    /// Polls `/_demo/stats` (every 10 ms) until the server has counted `count` requests for
    /// `route`, that is, until it has read them whole and started handling them. Polling, because
    /// the server gives no signal when it starts a request (its log has a line when it ends one);
    /// `timeout` is a hang guard only, far above the milliseconds this takes.
    func waitUntilServerCounts(
        _ count: Int, for route: String, timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        var seen = try await requestCount(route)
        while seen < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            seen = try await requestCount(route)
        }
        XCTAssertEqual(seen, count, "the server counted \(seen) requests for \(route) within \(timeout) s", file: file, line: line)
    }

    // MARK: - Outcomes

    /// `duration` in seconds, for assertions.
    func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// The `APIError` the promise rejects with; fails the test (and returns nil) if it fulfils
    /// or rejects with something else.
    func apiError<T>(_ promise: Promise<T>, file: StaticString = #filePath, line: UInt = #line) async -> APIError? {
        do {
            _ = try await promise.value
            XCTFail("the call succeeded, but an APIError was expected", file: file, line: line)
            return nil
        } catch let error as APIError {
            return error
        } catch {
            XCTFail("expected an APIError, got \(type(of: error)): \(error)", file: file, line: line)
            return nil
        }
    }

    /// The `URLError` code of a `.transport` error, nil (and a failure) for any other error.
    func transportCode(_ error: APIError?, file: StaticString = #filePath, line: UInt = #line) -> URLError.Code? {
        guard let matched = error, matched.kind == .transport else {
            XCTFail("expected APIError.transport, got \(error.map { "\($0)" } ?? "nil")", file: file, line: line)
            return nil
        }
        let urlError = matched.urlError!
        return urlError.code
    }

    // MARK: - Thread-safe helpers

    /// The lines a server logged, and expectations fulfilled by lines yet to come.
    final class ServerLog: Sendable {
        private struct Waiter {
            var text: String
            var expectation: XCTestExpectation
            /// Lines still to come before the expectation is fulfilled.
            var remaining = 1
        }

        private let lines = Locked<[String]>([])
        private let waiters = Locked<[Waiter]>([])

        func append(_ line: String) {
            lines.withLock { $0.append(line) }
            let matched = waiters.withLock { waiters in
                var matched: [XCTestExpectation] = []
                for index in waiters.indices where line.contains(waiters[index].text) {
                    waiters[index].remaining -= 1
                    if waiters[index].remaining == 0 { matched.append(waiters[index].expectation) }
                }
                waiters.removeAll { $0.remaining == 0 }
                return matched
            }
            for expectation in matched { expectation.fulfill() }
        }

        func clear() {
            lines.withLock { $0.removeAll() }
            waiters.withLock { $0.removeAll() }
        }

        var all: [String] { lines.value }

        /// An expectation fulfilled by the next line logged that contains `text` (lines logged
        /// before this call do not count).
        func expectLine(containing text: String) -> XCTestExpectation {
            expectLines(containing: text, count: 1)
        }

        /// An expectation fulfilled once `count` more lines containing `text` have been logged
        /// (lines logged before this call do not count).
        func expectLines(containing text: String, count: Int) -> XCTestExpectation {
            let expectation = XCTestExpectation(description: "the server logs \(count) lines containing \(text)")
            waiters.withLock { $0.append(Waiter(text: text, expectation: expectation, remaining: count)) }
            return expectation
        }
    }

    /// A monitor that records every event with the time it arrived.
    final class EventRecorder: ClientMonitor {
        struct Entry: Sendable {
            var event: ClientEvent
            var time: ContinuousClock.Instant
        }

        private let entries = Locked<[Entry]>([])
        private let onEvent: @Sendable (ClientEvent) -> Void

        init(onEvent: @escaping @Sendable (ClientEvent) -> Void = { _ in }) {
            self.onEvent = onEvent
        }

        func receive(_ event: ClientEvent) {
            entries.withLock { $0.append(Entry(event: event, time: .now)) }
            onEvent(event)
        }

        var all: [Entry] { entries.value }
        var events: [ClientEvent] { all.map(\.event) }

        /// The attempt count of the latest `failed` event, if there was one.
        var attemptsOfLastFailure: Int? {
            for event in events.reversed() {
                if event.kind == .failed { return event.attempts }
            }
            return nil
        }

        /// The events as short labels: `started GET /orders/1`, `attempt 1`, `retrying after 1
        /// (status 503)`, `succeeded 200 after 2`, `failed after 3 (status 503)`.
        /// The events of the calls, as labels; connection events, which are the transport's, left out.
        var labels: [String] { events.filter { $0.kind != .connection }.map(Self.label) }

        /// When each attempt started, by attempt number (1 first).
        var attemptTimes: [ContinuousClock.Instant] {
            all.compactMap { entry in
                if entry.event.kind == .attemptStarted { return entry.time }
                return nil
            }
        }

        static func label(_ event: ClientEvent) -> String {
            switch event.kind {
            case .started: return "started \(event.request)"
            case .attemptStarted: return "attempt \(event.attempt!)"
            case .retrying: return "retrying after \(event.attempt!) (\(describe(event.error!)))"
            case .succeeded: return "succeeded \(event.response!.statusCode) after \(event.attempts!)"
            case .failed: return "failed after \(event.attempts!) (\(describe(event.error!)))"
            default: return "\(event.kind)"
            }
        }

        private static func describe(_ error: any Error) -> String {
            guard let error = error as? APIError else { return "\(type(of: error))" }
            switch error.kind {
            case .invalidRequest: return "invalid \(error.field!)"
            case .transport: return "transport \(error.urlError!.code.rawValue)"
            case .unacceptableStatus: return "status \(error.statusCode!)"
            case .unacceptableContentType: return "content type \(error.contentType ?? "none")"
            case .decodingFailed: return "not \(error.decodedType!)"
            case .cancelled: return "cancelled"
            default: return "\(error.kind)"
            }
        }
    }
}

/// Holds each request in the adapter until `release` is signalled, so that a test can pause a
/// call or add handlers to it before its request can start.
struct HeldAdapter: RequestAdapter {
    let release: DispatchSemaphore

    func adapt(_ request: URLRequest, context: AttemptContext) async throws -> URLRequest {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                release.wait()
                continuation.resume()
            }
        }
        return request
    }
}

extension Client.Configuration {
    /// This configuration with `monitors` instead of its own.
    func withMonitors(_ monitors: [any ClientMonitor]) -> Client.Configuration {
        var configuration = self
        configuration.monitors = monitors
        return configuration
    }
}
