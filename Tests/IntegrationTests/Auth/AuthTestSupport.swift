@testable import BatonAuth
import BatonClient
import BatonSupport
import DemoServer
import Foundation
import TestSupport
import XCTest

extension IntegrationTestCase {
    /// Sends `count` `GET /orders/:id` at once and returns their outcomes.
    func sendOrders(_ count: Int, through client: Client) async -> [Result<Order, any Error>] {
        let promises = (0..<count).map { client.send(Request<Order>(.get, "orders/\($0 % 8 + 1)")) }
        var results: [Result<Order, any Error>] = []
        for promise in promises {
            do { results.append(.success(try await promise.value)) } catch { results.append(.failure(error)) }
        }
        return results
    }

    /// Sends 1,000 requests at once after every access token of `server` expired, and asserts they
    /// all succeed.
    func assertAThousandRequestsSucceed_afterTheTokensExpire(
        through client: Client, of server: DemoServer, file: StaticString = #filePath, line: UInt = #line
    ) async {
        server.expireAccessTokens()
        let results = await sendOrders(1000, through: client)
        let failures = results.compactMap { result -> (any Error)? in if case .failure(let error) = result { return error } else { return nil } }
        XCTAssertEqual(failures.count, 0, "\(failures.first.map { "\($0)" } ?? "")", file: file, line: line)
    }

    /// What a browser does with an authorization page of DemoServer, which approves (or denies) at
    /// once: opens it, and returns where it redirects.
    func openInBrowser(_ page: URL, on server: DemoServer) async throws -> URL {
        let query = URLComponents(url: page, resolvingAgainstBaseURL: false)?.percentEncodedQuery
        let items = try RedirectParameters(query: query).values.map { URLQueryItem(name: $0.key, value: $0.value) }
        var request = Request<HTTPResponse>(.get, "authorize", query: items)
        request.acceptableStatusCodes = 302..<303
        let browser = try Client(baseURL: server.baseURL) { $0.redirects = RedirectPolicy(follows: false) }
        let response = try await browser.send(request).value
        return try XCTUnwrap(response.value(forHeader: "Location").flatMap(URL.init(string:)))
    }
}

/// A time a test moves by hand, read both as the server's token clock and as the authenticator's
/// wall clock, so that lifetimes and polling intervals pass at exact points of a test.
final class ManualTime: Sendable {
    private let start = ContinuousClock.now
    private let startDate = Date()
    private let offset = Locked(Duration.zero)

    var instant: ContinuousClock.Instant { start + offset.value }
    var date: Date { startDate + offset.value.timeInterval }

    func advance(by duration: Duration) {
        offset.withLock { $0 += duration }
    }
}

/// The device grant's pauses, scripted: each is recorded, moves the manual time (by what was asked,
/// unless `advancing` says otherwise) and then lasts a millisecond; the pause numbered `holdAt`
/// waits until the test calls `release()`, having fulfilled `held`.
final class PollScript: Sendable {
    let pauses = Recorder<Duration>()
    let held = XCTestExpectation(description: "the polling reached the held pause")
    private let time: ManualTime
    private let holdAt: Int?
    private let advancing: @Sendable (_ pause: Int, _ requested: Duration) -> Duration
    private let gate = DispatchSemaphore(value: 0)

    init(
        time: ManualTime, holdAt: Int? = nil,
        advancing: @escaping @Sendable (_ pause: Int, _ requested: Duration) -> Duration = { $1 }
    ) {
        self.time = time
        self.holdAt = holdAt
        self.advancing = advancing
    }

    func pause(_ requested: Duration) -> Duration {
        pauses.append(requested)
        let number = pauses.count
        time.advance(by: advancing(number, requested))
        if number == holdAt {
            held.fulfill()
            gate.wait()
        }
        return .milliseconds(1)
    }

    func release() {
        gate.signal()
    }
}
