@testable import BatonSupport
@testable import BatonPromise
import Dispatch
import Foundation
import TestSupport
import XCTest

/// Many calls at once through one client.
final class ConcurrencyIntegrationTests: IntegrationTestCase {
    /// Sent from one task, in flight at once: the transport's bookkeeping of many tasks.
    func test_200GetsInFlightAtOnce_throughOneClient_allSucceedWithTheRightValue() async throws {
        let calls = (0..<200).map { _ in client.send(GetOrder(id: 1)) }

        let orders = try await Promise.all(calls).value

        XCTAssertEqual(orders, Array(repeating: Fixtures.order(1), count: 200))
        let requests = try await requestCount("GET /orders/:id")
        XCTAssertEqual(requests, 200)
    }

    func test_manyGetsOfDifferentOrdersInFlight_eachGetItsOwnAnswer() async throws {
        let ids = (0..<160).map { $0 % 8 + 1 }
        let calls = ids.map { client.send(GetOrder(id: $0)) }

        let orders = try await Promise.all(calls).value

        XCTAssertEqual(orders, ids.map(Fixtures.order))
    }

    /// Sent from eight threads at once, so that the client and its transport are entered
    /// concurrently, not only kept busy.
    func test_callsSentFromEightThreadsAtOnce_eachGetItsOwnAnswer() async throws {
        let calls = Locked<[(id: Int, call: Promise<Order>)]>([])
        let client = self.client!
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<25 {
                let id = (thread * 25 + index) % 8 + 1
                let call = client.send(GetOrder(id: id))
                calls.withLock { $0.append((id, call)) }
            }
        }

        let sent = calls.value
        let orders = try await Promise.all(sent.map(\.call)).value

        XCTAssertEqual(orders, sent.map { Fixtures.order($0.id) })
        let requests = try await requestCount("GET /orders/:id")
        XCTAssertEqual(requests, 200)
    }

    func test_50PostsInFlightAtOnce_createOneReviewEach() async throws {
        let calls = (1...50).map { client.send(Reviews.post(facilityID: 2, content: "review \($0)", rating: $0 % 5 + 1)) }

        let reviews = try await Promise.all(calls).value

        XCTAssertEqual(Set(reviews.map(\.id)), Set(1...50))
        XCTAssertEqual(reviews.map(\.content), (1...50).map { "review \($0)" })
    }
}
