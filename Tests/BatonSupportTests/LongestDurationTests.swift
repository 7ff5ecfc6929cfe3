@testable import BatonSupport
import Foundation
import XCTest

/// `.seconds(Int64.max)`, what a caller may write for "never", wherever Baton takes a duration:
/// its conversions saturate rather than overflow (which traps), and what waits that long waits
/// (it does not wrap round to a wait of none).
final class LongestDurationTests: XCTestCase {
    private let longest = Duration.seconds(Int64.max)

    // MARK: The conversions

    func test_theLongestDuration_convertsToTheMostEachUnitHolds() {
        XCTAssertEqual(longest.clampedNanoseconds, Int.max)
        XCTAssertEqual(longest.clampedMilliseconds, Int.max / 1_000_000)
        XCTAssertEqual(longest.roundedMilliseconds, Int.max / 1_000_000 + 1)
        XCTAssertEqual(longest.dispatchInterval, .nanoseconds(Int.max))
        XCTAssertEqual(longest.timeInterval, 9.223372036854775807e18)
    }

    func test_aDurationJustPastTheMostNanoseconds_isClamped_notWrapped() {
        let past = Duration.nanoseconds(Int64.max) + .nanoseconds(1)
        XCTAssertEqual(past.clampedNanoseconds, Int.max)
        XCTAssertEqual(Duration.seconds(-5).clampedNanoseconds, 0)
        XCTAssertEqual((.zero - longest).clampedMilliseconds, 0)
    }

    func test_ordinaryDurations_convertExactly() {
        XCTAssertEqual(Duration.milliseconds(1500).clampedNanoseconds, 1_500_000_000)
        XCTAssertEqual(Duration.microseconds(1499).clampedMilliseconds, 1)
        XCTAssertEqual(Duration.microseconds(1499).roundedMilliseconds, 1)
        XCTAssertEqual(Duration.microseconds(1500).roundedMilliseconds, 2)
    }

    /// Every timing Baton measures and every benchmark rate reads seconds this way.
    func test_ordinaryDurations_areTheirSecondsAndFraction_asATimeInterval() {
        XCTAssertEqual(Duration.milliseconds(1500).timeInterval, 1.5)
        XCTAssertEqual(Duration.nanoseconds(1).timeInterval, 1e-9)
        XCTAssertEqual((Duration.zero - .milliseconds(1500)).timeInterval, -1.5)
        XCTAssertEqual(Duration.zero.timeInterval, 0)
    }

    func test_multiplyingTheLongestDuration_saturates() {
        XCTAssertEqual(longest.saturatingMultiplied(by: 1 << 30), longest)
        XCTAssertEqual(Duration.seconds(Int64.max / 2 + 1).saturatingMultiplied(by: 2), longest)
        XCTAssertEqual(Duration.milliseconds(500).saturatingMultiplied(by: 8), .seconds(4))
        XCTAssertEqual(Duration.milliseconds(500).saturatingMultiplied(by: 0), .zero)
    }
}
