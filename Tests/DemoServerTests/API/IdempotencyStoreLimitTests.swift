import XCTest
@testable import DemoServer

/// The server's store of idempotency keys holds a bounded number of responses, forgetting the oldest.
final class IdempotencyStoreLimitTests: XCTestCase {
    private func answer(_ store: inout IdempotencyStore, _ key: String) {
        guard case .reserved(let token) = store.arrive(key) else { return XCTFail("\(key) was not free") }
        store.remember(key, token: token, fingerprint: Fingerprint([key]), response: .message(201, key))
    }

    func test_pastItsLimit_theOldestAnswersAreForgotten_andTheNewestKept() {
        var store = IdempotencyStore()
        for index in 0...IdempotencyStore.limit { answer(&store, "key-\(index)") }

        XCTAssertEqual(store.arrive("key-0"), .reserved(token: IdempotencyStore.limit + 2), "the oldest answer was forgotten")
        XCTAssertEqual(store.arrive("key-1"), .answered)
        XCTAssertEqual(store.arrive("key-\(IdempotencyStore.limit)"), .answered)
    }

    func test_aHeldKey_isNeverForgotten() {
        var store = IdempotencyStore()
        _ = store.arrive("held")
        for index in 0...IdempotencyStore.limit { answer(&store, "key-\(index)") }

        XCTAssertEqual(store.arrive("held"), .busy)
    }
}
