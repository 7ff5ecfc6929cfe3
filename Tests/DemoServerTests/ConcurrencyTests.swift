import XCTest
import BatonLocking
@testable import DemoServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Many connections at once, each served on its own, none held up by a slow neighbour.
final class ConcurrencyTests: ServerTestCase {
    override func makeConfiguration() -> DemoServer.Configuration {
        var configuration = super.makeConfiguration()
        configuration.idleTimeout = 10
        return configuration
    }

    func test_200SimultaneousConnections_areServedIndependently() throws {
        let clients = try (0..<200).map { _ in try rawClient(readTimeout: 10) }
        let start = ContinuousClock.now
        // Every request waits 500 ms on the server: one after another, they would take 100 s.
        for client in clients {
            XCTAssertTrue(client.send("GET /health HTTP/1.1\nHost: x\nX-Demo-Fault: delay=500ms\n\n".crlf))
        }
        for client in clients {
            XCTAssertEqual(try client.readResponse().status, 200)
        }
        // A hang guard far above the half second this takes, far below the 100 s of serving in turn.
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(20))
    }

    func test_200ConcurrentURLSessionRequests_allSucceed() async throws {
        let session = self.session!
        let url = url("/health")
        let start = ContinuousClock.now
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<200 {
                group.addTask { try await fetchStatus(session, url, fault: "delay=300ms") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(statuses, Array(repeating: 200, count: 200))
        // Served in turn, this would take 60 s.
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(30))
    }

    func test_slowClient_doesNotBlockOtherClients() async throws {
        let slow = try rawClient(readTimeout: 0.05)
        slow.send("POST /_demo/echo HTTP/1.1\nHost: x\nContent-Length: 1000\n\npartial".crlf)
        let start = ContinuousClock.now
        for _ in 0..<50 {
            let reply = try await send("GET", "/health")
            XCTAssertEqual(reply.status, 200)
        }
        XCTAssertLessThan(ContinuousClock.now - start, .seconds(5))
        // The slow request is still pending: nobody had to wait for it to be timed out.
        XCTAssertFalse(slow.readUntilClosed().closed)
    }

    /// Twenty requests are answered while a delayed one is still held: an ordering, not a time.
    func test_delayedRequest_doesNotHoldUpOtherConnections() async throws {
        let session = self.session!
        let url = url("/health")
        let delayedFinished = Locked(false)
        let delayed = Task {
            _ = try? await fetchStatus(session, url, fault: "delay=30s")
            delayedFinished.withLock { $0 = true }
        }
        try await waitUntilServerCounts(1, for: "GET /health")
        for _ in 0..<20 {
            let reply = try await send("GET", "/health")
            XCTAssertEqual(reply.status, 200)
        }
        XCTAssertFalse(delayedFinished.value, "the delayed request was answered before the others")
        delayed.cancel()
        _ = await delayed.value
    }
}

/// One GET through `session`, usable from concurrent tasks (it captures no test case state).
private func fetchStatus(_ session: URLSession, _ url: URL, fault: String) async throws -> Int {
    var request = URLRequest(url: url)
    request.setValue(fault, forHTTPHeaderField: "X-Demo-Fault")
    let (_, response) = try await session.data(for: request)
    return (response as? HTTPURLResponse)?.statusCode ?? -1
}
