import XCTest
import BatonSupport
@testable import DemoServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Many connections at once, each served on its own, none held up by a slow neighbour.
final class ConcurrencyTests: ServerTestCase {
    override func makeConfiguration() -> DemoServer.Configuration {
        var configuration = super.makeConfiguration()
        // No connection here is closed for silence, however slow a busy machine makes the test:
        // the slow client's request is still pending at the end of its test, and requests held
        // at a barrier wait as long as the others take to arrive.
        configuration.idleTimeout = 300
        return configuration
    }

    /// A hang guard only (per read): the server answers as soon as the last request arrives.
    private let hangGuard: Double = 30

    /// Each request is held at a barrier until all 200 have arrived: only a server handling the
    /// 200 at once answers any of them (one serving connections in turn would hold the first
    /// forever).
    func test_200SimultaneousConnections_areServedIndependently() throws {
        let clients = try (0..<200).map { _ in try rawClient(readTimeout: hangGuard) }
        for client in clients {
            XCTAssertTrue(client.send("GET /health HTTP/1.1\nHost: x\nX-Demo-Fault: barrier=200\n\n".crlf))
        }
        for client in clients {
            XCTAssertEqual(try client.readResponse().status, 200)
        }
    }

    /// The same through URLSession (libcurl on Linux): 200 requests in flight at once, held at a
    /// barrier until the 200th arrives.
    func test_200ConcurrentURLSessionRequests_allSucceed() async throws {
        let session = self.session!
        let url = url("/health")
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<200 {
                group.addTask { try await fetchStatus(session, url, fault: "barrier=200") }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(statuses, Array(repeating: 200, count: 200))
    }

    /// A request whose body never comes holds its connection; fifty requests on other connections
    /// are answered meanwhile. A server blocked on the slow one would answer none of them before
    /// the slow request ends (after the 300 s idle timeout), and URLSession's 20 s request timeout
    /// would fail the test.
    func test_slowClient_doesNotBlockOtherClients() async throws {
        let slow = try rawClient(readTimeout: 0.05)
        slow.send("POST /_demo/echo HTTP/1.1\nHost: x\nContent-Length: 1000\n\npartial".crlf)
        for _ in 0..<50 {
            let reply = try await send("GET", "/health")
            XCTAssertEqual(reply.status, 200)
        }
        // The slow request is still pending: nobody had to wait for it to be timed out.
        XCTAssertFalse(slow.readUntilClosed().closed)
    }

    /// Twenty requests are answered while a delayed one is still held: an ordering, not a time.
    func test_delayedRequest_doesNotHoldUpOtherConnections() async throws {
        let session = self.session!
        let url = url("/health")
        let delayedFinished = Locked(false)
        let delayed = Task {
            // The longest delay there is, cut short by the cancel below.
            _ = try? await fetchStatus(session, url, fault: "delay=300s")
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
