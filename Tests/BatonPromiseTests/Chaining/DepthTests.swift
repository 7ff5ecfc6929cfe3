@testable import BatonPromise
import TestSupport
import XCTest

/// Very long chains and very many handlers: settling must not grow the stack with the length.
final class DepthTests: XCTestCase {
    func test_millionStepChainOnAPendingRoot_settlesWithTheRightValue() {
        let root = Deferred<Int>()
        var last = root.promise
        for _ in 0..<1_000_000 {
            last = last.success { $0 + 1 }
        }
        XCTAssertEqual(last.state, .running)
        root.fulfill(0)
        XCTAssertEqual(last.fulfilledValue, 1_000_000)
    }

    func test_hundredThousandHandlersOnOnePromise_eachRunOnceInOrder() {
        let deferred = Deferred<Int>()
        let ran = Recorder<Int>()
        for index in 0..<100_000 {
            deferred.promise.always { ran.append(index) }
        }
        deferred.fulfill(1)
        XCTAssertEqual(ran.events, Array(0..<100_000))
    }

    func test_hundredThousandPromiseReturningStepsOnAPendingRoot_settleWithTheRightValue() {
        let root = Deferred<Int>()
        var last = root.promise
        for _ in 0..<100_000 {
            last = last.success { Promise(value: $0 + 1) }
        }
        root.fulfill(0)
        XCTAssertEqual(last.fulfilledValue, 100_000)
    }

    func test_hundredThousandStepChain_rejectedAtTheRoot_skipsEveryStepAndReachesTheEnd() {
        let root = Deferred<Int>()
        let ran = Counter()
        var last = root.promise
        for _ in 0..<100_000 {
            last = last.success { value -> Int in
                ran.increment()
                return value
            }
        }
        let seen = Recorder<TestError?>()
        last.failure { error, _ in seen.append(error as? TestError) }
        root.reject(TestError.boom)
        XCTAssertEqual(ran.value, 0)
        XCTAssertEqual(seen.events, [.boom])
    }

    func test_hundredThousandStepChain_cancelledAtTheRoot_cancelsEveryPromise() {
        let root = Deferred<Int>()
        var promises: [Promise<Int>] = [root.promise]
        for _ in 0..<100_000 {
            promises.append(promises[promises.count - 1].success { $0 + 1 })
        }
        root.promise.cancel()
        XCTAssertEqual(root.cancelCount, 1)
        XCTAssertEqual(promises.filter { $0.state != .cancelled }.count, 0)
    }

    // MARK: Stack growth

    /// How far below the caller's frame the stack reaches, in bytes, at the deepest call of
    /// `probe`.
    private func stackUsed(_ run: (_ probe: @escaping @Sendable () -> Void) -> Void) -> Int {
        let top = stackAddress()
        let addresses = Recorder<UInt>()
        run { addresses.append(stackAddress()) }
        guard let deepest = addresses.events.min() else {
            XCTFail("the probe never ran")
            return 0
        }
        return Int(top) - Int(deepest)
    }

    /// A pending chain of `length` steps after a root whose configure handlers are given.
    private func chain(
        length: Int,
        configure: (PromiseConfiguration) -> Void
    ) -> (root: WorkHandle<Int>, last: Promise<Int>) {
        let (root, work) = WorkHandle<Int>.makePending()
        configure(work.configuration)
        var last = root
        for _ in 0..<length {
            last = last.success { $0 + 1 }
        }
        return (work, last)
    }

    private let shortChain = 200
    private let longChain = 2_000
    /// Far less than the long chain would need if every step added even one small frame.
    private let allowedGrowth = 64 * 1024

    func test_settlingALongChain_doesNotDeepenTheStackMoreThanAShortOne() {
        func used(_ length: Int) -> Int {
            stackUsed { probe in
                let root = Deferred<Int>()
                var last = root.promise
                for _ in 0..<length {
                    last = last.success { value -> Int in
                        probe()
                        return value + 1
                    }
                }
                root.fulfill(0)
            }
        }
        let short = used(shortChain)
        let long = used(longChain)
        XCTAssertLessThan(long - short, allowedGrowth, "short chain: \(short) bytes, long chain: \(long) bytes")
    }

    func test_settlingALongChainOfPromiseReturningSteps_doesNotDeepenTheStackMoreThanAShortOne() {
        func used(_ length: Int) -> Int {
            stackUsed { probe in
                let root = Deferred<Int>()
                var last = root.promise
                for _ in 0..<length {
                    last = last.success { value -> Promise<Int> in
                        probe()
                        return Promise(value: value + 1)
                    }
                }
                root.fulfill(0)
            }
        }
        let short = used(shortChain)
        let long = used(longChain)
        XCTAssertLessThan(long - short, allowedGrowth, "short chain: \(short) bytes, long chain: \(long) bytes")
    }

    func test_cancellingTheLastPromiseOfALongChain_doesNotDeepenTheStackMoreThanAShortOne() {
        func used(_ length: Int) -> Int {
            stackUsed { probe in
                let (root, last) = chain(length: length) { $0.cancel = probe }
                last.cancel()
                withExtendedLifetime(root) {}
            }
        }
        let short = used(shortChain)
        let long = used(longChain)
        XCTAssertLessThan(long - short, allowedGrowth, "short chain: \(short) bytes, long chain: \(long) bytes")
    }

    func test_pausingTheLastPromiseOfALongChain_doesNotDeepenTheStackMoreThanAShortOne() {
        func used(_ length: Int) -> Int {
            stackUsed { probe in
                let (root, last) = chain(length: length) { $0.pause = probe }
                last.pause()
                root.fulfill(0)
            }
        }
        let short = used(shortChain)
        let long = used(longChain)
        XCTAssertLessThan(long - short, allowedGrowth, "short chain: \(short) bytes, long chain: \(long) bytes")
    }

    func test_resumingTheLastPromiseOfALongChain_doesNotDeepenTheStackMoreThanAShortOne() {
        func used(_ length: Int) -> Int {
            stackUsed { probe in
                let (root, last) = chain(length: length) { $0.resume = probe }
                last.pause()
                last.resume()
                root.fulfill(0)
            }
        }
        let short = used(shortChain)
        let long = used(longChain)
        XCTAssertLessThan(long - short, allowedGrowth, "short chain: \(short) bytes, long chain: \(long) bytes")
    }
}
