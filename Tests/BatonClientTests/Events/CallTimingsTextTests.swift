@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// How timings read: `CallTimings.description` (one line, `total …` first, phases summed over
/// attempts, tiny ones left out) and the end of LoggingMonitor's ✓ and ✗ lines.
final class CallTimingsTextTests: XCTestCase {

    private func attempt(
        adapting: Duration = .zero, connecting: Duration? = nil, securing: Duration? = nil, sending: Duration? = nil,
        waiting: Duration? = nil, receiving: Duration? = nil, processing: Duration? = nil, retryWait: Duration? = nil
    ) -> AttemptTimings {
        AttemptTimings(
            adapting: adapting, connecting: connecting, securing: securing, sending: sending, waiting: waiting,
            receiving: receiving, processing: processing, retryWait: retryWait, reusedConnection: nil
        )
    }

    // MARK: description

    func test_description_namesEveryPhase_inOrder() {
        let timings = CallTimings(
            preparing: .microseconds(100),
            attempts: [attempt(
                connecting: .microseconds(400), securing: .microseconds(2300), sending: .microseconds(100),
                waiting: .microseconds(8000), receiving: .microseconds(900), processing: .microseconds(300)
            )],
            total: .microseconds(12100)
        )
        XCTAssertEqual(timings.description, "total 12.1 ms: prepare 0.1, connect 0.4, tls 2.3, send 0.1, wait 8.0, receive 0.9, process 0.3")
    }

    func test_description_sumsPhasesOverAttempts_andNamesTheAttemptsAndWaits() {
        let timings = CallTimings(
            preparing: .zero,
            attempts: [
                attempt(waiting: .milliseconds(1), retryWait: .milliseconds(5)),
                attempt(adapting: .milliseconds(2), waiting: .milliseconds(3), processing: .milliseconds(1)),
            ],
            total: .milliseconds(12)
        )
        XCTAssertEqual(timings.description, "total 12.0 ms (2 attempts): adapt 2.0, wait 4.0, process 1.0, retry waits 5.0")
        XCTAssertEqual(timings.retryWaits, .milliseconds(5))
    }

    func test_description_leavesOutPhasesUnder50Microseconds() {
        let timings = CallTimings(
            preparing: .microseconds(49), attempts: [attempt(adapting: .microseconds(10), receiving: .microseconds(60))],
            total: .microseconds(119)
        )
        XCTAssertEqual(timings.description, "total 0.1 ms: receive 0.1")
    }

    func test_description_ofNothingButATotal_isTheTotalAlone() {
        let timings = CallTimings(preparing: .zero, attempts: [], total: .zero)
        XCTAssertEqual(timings.description, "total 0.0 ms")
    }

    func test_description_ofARealCall_isOneLineStartingWithTheTotal() async throws {
        let monitor = RecordingMonitor()
        let transport = sequencedStub([HTTPResponse(statusCode: 503), .json(Fixtures.orderJSON)])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy]) { $0.monitors = [monitor] }
        _ = try await client.send(Request<Order>(.get, "orders/1")).value

        let description = try XCTUnwrap(monitor.events.last?.timings).description
        XCTAssertTrue(description.hasPrefix("total "), description)
        XCTAssertFalse(description.contains("\n"), description)
        XCTAssertNotNil(description.range(of: #"^total \d+\.\d ms \(2 attempts\)"#, options: .regularExpression), description)
    }

    // MARK: LoggingMonitor

    private func loggedLines(_ transport: StubTransport, retriers: [any RequestRetrier] = [], send: (Client) async -> Void) async throws -> [String] {
        let lines = Recorder<String>()
        let client = try makeClient(transport: transport, retriers: retriers) { configuration in
            configuration.monitors = [LoggingMonitor { lines.append($0) }]
        }
        await send(client)
        return lines.events
    }

    func test_successLine_endsWithTheTimings() async throws {
        let lines = try await loggedLines(constantStub(.json(Fixtures.orderJSON))) { client in
            _ = try? await client.send(Request<Order>(.get, "orders/1")).value
        }
        let line = try XCTUnwrap(lines.first { $0.hasPrefix("✓") }, "\(lines)")
        XCTAssertNotNil(
            line.range(of: #"^✓ GET http://h/orders/1 200 in \d+ ms \(1 attempt\) \[total \d+\.\d ms[^\]]*\]$"#, options: .regularExpression), line
        )
    }

    func test_failureLine_endsWithTheTimings() async throws {
        let lines = try await loggedLines(constantStub(HTTPResponse(statusCode: 503)), retriers: [fastRetryPolicy]) { client in
            _ = await awaitError(client.send(Request<Order>(.get, "orders/1")))
        }
        let line = try XCTUnwrap(lines.first { $0.hasPrefix("✗") }, "\(lines)")
        XCTAssertTrue(line.hasPrefix("✗ GET http://h/orders/1 failed after 3 attempts: "), line)
        XCTAssertNotNil(line.range(of: #" \[total \d+\.\d ms \(3 attempts\)[^\]]*\]$"#, options: .regularExpression), line)
    }

    func test_otherLines_carryNoTimings() async throws {
        let lines = try await loggedLines(sequencedStub([HTTPResponse(statusCode: 503), .json(Fixtures.orderJSON)]), retriers: [fastRetryPolicy]) { client in
            _ = try? await client.send(Request<Order>(.get, "orders/1")).value
        }
        XCTAssertEqual(lines.map { String($0.prefix(1)) }, ["→", "↻", "✓"])
        XCTAssertEqual(lines.filter { $0.contains("[total ") }.count, 1, "\(lines)")
    }
}
