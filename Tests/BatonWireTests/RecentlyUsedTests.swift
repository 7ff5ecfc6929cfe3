@testable import BatonWire
import XCTest

/// The bounded set behind the transport's pools and the image loader's clients per origin.
final class RecentlyUsedTests: XCTestCase {
    func test_pastItsCapacity_theValueUsedLeastRecentlyIsForgotten_andHandedBack() {
        var set = RecentlyUsed<String>(capacity: 2)
        XCTAssertNil(set.use("a", orMake: { "A" }).evicted)
        XCTAssertNil(set.use("b", orMake: { "B" }).evicted)
        XCTAssertEqual(set.use("a", orMake: { "A2" }).value, "A", "a kept value is used, not made again")
        let third = set.use("c", orMake: { "C" })
        XCTAssertEqual(third.value, "C")
        XCTAssertEqual(third.evicted, "B", "b was used least recently")
        XCTAssertEqual(Set(set.values), ["A", "C"])
    }

    func test_aThousandKeys_keepNoMoreThanTheCapacity() {
        var set = RecentlyUsed<Int>(capacity: 16)
        for key in 0..<1000 { _ = set.use("\(key)", orMake: { key }) }
        XCTAssertEqual(set.values.count, 16)
        XCTAssertEqual(Set(set.values), Set(984..<1000))
    }

    func test_aCapacityBelowOne_keepsOne() {
        var set = RecentlyUsed<Int>(capacity: 0)
        _ = set.use("a", orMake: { 1 })
        XCTAssertEqual(set.use("b", orMake: { 2 }).evicted, 1)
        XCTAssertEqual(set.values, [2])
    }
}
