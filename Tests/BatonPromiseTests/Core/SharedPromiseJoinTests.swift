@testable import BatonPromise
import TestSupport
import XCTest

/// `SharedPromise.shareIfRunning()`: joining work and checking that it was not cancelled are one
/// step, so that a caller never joins work every other caller has cancelled.
final class SharedPromiseJoinTests: XCTestCase {
    func test_workCancelledByItsLastShare_isNotJoined() {
        let work = Promise<Int>(upstream: nil)
        let shared = SharedPromise(work)
        let only = shared.share()

        only.cancel()

        XCTAssertFalse(work.isPending, "the last share's cancel cancelled the work")
        XCTAssertNil(shared.shareIfRunning())
    }

    func test_runningWork_isJoined_andKeptForTheJoinerWhenTheOtherCancels() async throws {
        let work = Promise<Int>(upstream: nil)
        let shared = SharedPromise(work)
        let first = shared.share()
        let joined = try XCTUnwrap(shared.shareIfRunning())

        first.cancel()
        XCTAssertTrue(work.isPending, "the joiner still wants it")
        work.fulfil(7)

        let value = try await joined.value
        XCTAssertEqual(value, 7)
    }
}
