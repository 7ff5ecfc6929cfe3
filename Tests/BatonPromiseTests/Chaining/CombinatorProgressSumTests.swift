import BatonSupport
@testable import BatonPromise
import TestSupport
import XCTest

/// The bytes a combinator adds up, kept as running sums: right at any scale, with kinds that
/// mix, and with sizes no sum can hold.
final class CombinatorProgressSumTests: XCTestCase {
    /// A batch far larger than any test of the rules uses: every report, at every input, lands in
    /// the one sum (a correctness test; `baton-bench promise` measures the cost).
    func test_all_overOneHundredThousandInputsReportingBytes_endsWithTheirExactSum() throws {
        let count = 100_000
        var reporters: [@Sendable (PromiseProgress) -> Void] = []
        var fulfils: [@Sendable (Int) -> Void] = []
        let inputs = (0..<count).map { _ in
            Promise<Int> { progress, fulfill, _, _ in
                reporters.append(progress)
                fulfils.append(fulfill)
            }
        }
        let latest = Locked<PromiseProgress?>(nil)
        let combined = Promise.all(inputs).progress { progress in latest.withLock { $0 = progress } }

        // Each input sends (index % 7 + 1) kB, in three reports; the total is known once all have one.
        var expected: Int64 = 0
        for (index, report) in reporters.enumerated() {
            let size = Int64(index % 7 + 1) * 1_000
            expected += size
            report(PromiseProgress(completed: 0, total: size, kind: .bytesSent))
            report(PromiseProgress(completed: size / 2, total: size, kind: .bytesSent))
        }
        XCTAssertEqual(latest.value, PromiseProgress(completed: expected / 2, total: expected, kind: .bytesSent))
        for (index, report) in reporters.enumerated() {
            let size = Int64(index % 7 + 1) * 1_000
            report(PromiseProgress(completed: size, total: size, kind: .bytesSent))
            // The response's bytes: another kind, left out.
            report(PromiseProgress(completed: 10, total: 10, kind: .bytesReceived))
        }
        for (index, fulfil) in fulfils.enumerated() { fulfil(index) }

        XCTAssertEqual(latest.value, PromiseProgress(completed: expected, total: expected, kind: .bytesSent))
        XCTAssertEqual(try XCTUnwrap(combined.result).get().count, count)
    }

    func test_sum_takesBackAnInputsPreviousReport_andKnowsTheTotalOnlyOnceEveryInputHasOne() {
        var sum = ProgressSum(count: 3)
        XCTAssertNil(sum.current)
        XCTAssertEqual(sum.record(PromiseProgress(completed: 10, total: 100, kind: .bytesSent), at: 0),
                       PromiseProgress(completed: 10, total: nil, kind: .bytesSent))
        XCTAssertEqual(sum.record(PromiseProgress(completed: 60, total: 100, kind: .bytesSent), at: 0),
                       PromiseProgress(completed: 60, total: nil, kind: .bytesSent))
        XCTAssertEqual(sum.record(PromiseProgress(completed: 5, total: 50, kind: .bytesSent), at: 1),
                       PromiseProgress(completed: 65, total: nil, kind: .bytesSent))
        XCTAssertEqual(sum.record(PromiseProgress(completed: 0, kind: .bytesSent), at: 2),
                       PromiseProgress(completed: 65, total: nil, kind: .bytesSent))
        XCTAssertEqual(sum.record(PromiseProgress(completed: 1, total: 20, kind: .bytesSent), at: 2),
                       PromiseProgress(completed: 66, total: 170, kind: .bytesSent))
        XCTAssertEqual(sum.complete(at: 1), PromiseProgress(completed: 111, total: 170, kind: .bytesSent))
        XCTAssertNil(sum.record(PromiseProgress(completed: 3, total: 3), at: 2), "units do not count as bytes")
        XCTAssertNil(sum.record(PromiseProgress(completed: 3, total: 3, kind: .bytesReceived), at: 2), "another kind than its first")
    }

    func test_sum_ofInputsInDifferentKinds_isCountedAsUnits() {
        var sum = ProgressSum(count: 2)
        _ = sum.record(PromiseProgress(completed: 10, total: 10, kind: .bytesReceived), at: 0)
        XCTAssertEqual(sum.record(PromiseProgress(completed: 5, total: 10, kind: .bytesSent), at: 1),
                       PromiseProgress(completed: 15, total: 20, kind: .units))
    }

    /// Held at the top, the sum is still exact underneath: taking the absurd size back (a retry
    /// that restarts) leaves the true sum of the others.
    func test_sum_pastInt64_takesBackExactly() {
        var sum = ProgressSum(count: 2)
        _ = sum.record(PromiseProgress(completed: 0, total: .max, kind: .bytesReceived), at: 0)
        XCTAssertEqual(sum.record(PromiseProgress(completed: 0, total: 1000, kind: .bytesReceived), at: 1),
                       PromiseProgress(completed: 0, total: .max, kind: .bytesReceived))
        XCTAssertEqual(sum.record(PromiseProgress(completed: 0, kind: .bytesReceived), at: 0),
                       PromiseProgress(completed: 0, total: nil, kind: .bytesReceived))
        XCTAssertEqual(sum.record(PromiseProgress(completed: 500, total: 2000, kind: .bytesReceived), at: 0),
                       PromiseProgress(completed: 500, total: 3000, kind: .bytesReceived))
    }

    /// A server can declare any `Content-Length`: two near `Int64.max` are held at the top, never a trap.
    func test_sum_ofSizesNoInt64Holds_staysAtTheTop() {
        var sum = ProgressSum(count: 2)
        _ = sum.record(PromiseProgress(completed: .max - 1, total: .max, kind: .bytesReceived), at: 0)
        let both = sum.record(PromiseProgress(completed: .max - 1, total: .max, kind: .bytesReceived), at: 1)
        XCTAssertEqual(both, PromiseProgress(completed: .max, total: .max, kind: .bytesReceived))
    }
}
