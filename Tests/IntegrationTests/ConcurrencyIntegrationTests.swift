import Baton
import Foundation
import TestSupport
import XCTest

/// Many calls at once through one client.
final class ConcurrencyIntegrationTests: IntegrationTestCase {
    func test_200ConcurrentGets_throughOneClient_allSucceedWithTheRightValue() async throws {
        let calls = (0..<200).map { _ in client.send(GetOrder(id: 1)) }

        let orders = try await Promise.all(calls).value

        XCTAssertEqual(orders, Array(repeating: Fixtures.order(1), count: 200))
        let requests = try await requestCount("GET /orders/:id")
        XCTAssertEqual(requests, 200)
    }

    func test_concurrentGetsOfDifferentOrders_eachGetItsOwnAnswer() async throws {
        let ids = (0..<160).map { $0 % 8 + 1 }
        let calls = ids.map { client.send(GetOrder(id: $0)) }

        let orders = try await Promise.all(calls).value

        XCTAssertEqual(orders, ids.map(Fixtures.order))
    }

    func test_concurrentPosts_createOneReviewEach() async throws {
        let calls = (1...50).map { client.send(Reviews.post(facilityID: 2, content: "review \($0)", rating: $0 % 5 + 1)) }

        let reviews = try await Promise.all(calls).value

        XCTAssertEqual(Set(reviews.map(\.id)), Set(1...50))
        XCTAssertEqual(reviews.map(\.content), (1...50).map { "review \($0)" })
    }
}
