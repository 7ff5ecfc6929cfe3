import TestSupport
import XCTest
@testable import BatonPromise

/// Small trivially-copyable values are stored in place rather than boxed; every kind of value
/// must come back exactly as it went in, whichever way it is stored.
final class InPlaceValueTests: XCTestCase {
    struct Sixteen: Equatable, Sendable { var a: UInt64; var b: UInt64 }
    struct Seventeen: Equatable, Sendable { var a: UInt64; var b: UInt64; var c: UInt8 }
    struct Mixed: Equatable, Sendable { var flag: Bool; var value: Int32; var ratio: Double }

    private func storage<Value>(of promise: Promise<Value>) -> String {
        switch promise.core.withLock(annotating: promise, { $0.outcome }) {
        case .fulfilled?: return "boxed"
        case .fulfilledInPlace?: return "in place"
        case .rejected?: return "rejected"
        case nil: return "pending"
        }
    }

    func test_smallTrivialValues_areStoredInPlace() {
        XCTAssertEqual(storage(of: Promise(value: ())), "in place")
        XCTAssertEqual(storage(of: Promise(value: true)), "in place")
        XCTAssertEqual(storage(of: Promise(value: Int.min)), "in place")
        XCTAssertEqual(storage(of: Promise(value: Sixteen(a: 1, b: 2))), "in place")
    }

    func test_largerOrReferenceHoldingValues_areBoxed() {
        XCTAssertEqual(storage(of: Promise(value: Seventeen(a: 1, b: 2, c: 3))), "boxed")
        XCTAssertEqual(storage(of: Promise(value: "text")), "boxed")
        XCTAssertEqual(storage(of: Promise(value: [1, 2, 3])), "boxed")
    }

    func test_valuesComeBackExactly_inPlaceOrBoxed() throws {
        XCTAssertEqual(try Promise(value: Int.min).result?.get(), Int.min)
        XCTAssertEqual(try Promise(value: Sixteen(a: .max, b: 7)).result?.get(), Sixteen(a: .max, b: 7))
        XCTAssertEqual(try Promise(value: Mixed(flag: true, value: -5, ratio: 0.25)).result?.get(), Mixed(flag: true, value: -5, ratio: 0.25))
        XCTAssertEqual(try Promise(value: Seventeen(a: 1, b: 2, c: 255)).result?.get(), Seventeen(a: 1, b: 2, c: 255))
        XCTAssertEqual(try Promise(value: "日本語").result?.get(), "日本語")
    }

    func test_aChainAlternatingStorage_passesEveryValueThrough() async throws {
        let deferred = Deferred<Int>()
        let chain = deferred.promise
            .success { Sixteen(a: UInt64($0), b: UInt64($0) * 2) }
            .success { "\($0.a)-\($0.b)" }
            .success { Seventeen(a: UInt64($0.count), b: 9, c: 1) }
            .success { $0.a + $0.b + UInt64($0.c) }
        deferred.fulfill(21)
        let value = try await chain.value
        XCTAssertEqual(value, 5 + 9 + 1)  // "21-42" has 5 characters
    }
}
