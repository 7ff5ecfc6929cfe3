import BatonSupport
@testable import BatonPromise
import Dispatch
import Foundation
import TestSupport
import XCTest

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Shared helpers of the Promise tests.

/// Errors the tests reject with, comparable with `XCTAssertEqual`.
enum TestError: Error, Equatable, CustomStringConvertible {
    case boom
    case step(Int)

    var description: String {
        switch self {
        case .boom: return "boom"
        case .step(let number): return "step \(number)"
        }
    }
}

/// An error compared by identity, to prove that a handler receives exactly the instance thrown.
final class IdentifiedError: Error, Sendable {}


/// An object whose lifetime the memory tests watch through a weak reference.
final class Token: Sendable {
    let id: Int
    init(_ id: Int = 0) { self.id = id }
}

/// The work behind a pending promise, seen from outside: the progress, fulfil and reject callbacks
/// the promise's work closure received, kept so that a test can settle the promise later, and
/// counts of how often its configure.pause / resume / cancel handlers ran.
///
/// It does not refer to the promise itself, so a test can drop every reference to the promise and
/// still hold (or release) the work's callbacks.
final class WorkHandle<Value: Sendable>: Sendable {
    struct Callbacks: Sendable {
        let progress: @Sendable (PromiseProgress) -> Void
        let fulfill: @Sendable (Value) -> Void
        let reject: @Sendable (any Error) -> Void
    }

    let configuration: PromiseConfiguration
    let cancelCount: Counter
    let pauseCount: Counter
    let resumeCount: Counter
    private let callbacks: Locked<Callbacks?>

    fileprivate init(
        callbacks: Callbacks,
        configuration: PromiseConfiguration,
        cancelCount: Counter,
        pauseCount: Counter,
        resumeCount: Counter
    ) {
        self.callbacks = Locked(callbacks)
        self.configuration = configuration
        self.cancelCount = cancelCount
        self.pauseCount = pauseCount
        self.resumeCount = resumeCount
    }

    func fulfill(_ value: Value) {
        callbacks.withLock { $0 }?.fulfill(value)
    }

    func reject(_ error: any Error) {
        callbacks.withLock { $0 }?.reject(error)
    }

    func report(_ completed: Int64, of total: Int64? = nil) {
        callbacks.withLock { $0 }?.progress(PromiseProgress(completed: completed, total: total))
    }

    /// Lets go of the callbacks, as work does that finishes without settling its promise.
    func releaseCallbacks() {
        let released = callbacks.withLock { callbacks in
            defer { callbacks = nil }
            return callbacks
        }
        _ = released  // released here, outside the lock
    }

    /// Makes a pending promise and the handle of its work. The configure handlers count their
    /// calls and, if `log` is given, append "`name`.pause", "`name`.resume", "`name`.cancel".
    static func makePending(
        _ name: String = "work",
        log: Recorder<String>? = nil
    ) -> (promise: Promise<Value>, work: WorkHandle<Value>) {
        var captured: Callbacks?
        var capturedConfiguration: PromiseConfiguration?
        let cancelCount = Counter()
        let pauseCount = Counter()
        let resumeCount = Counter()
        let promise = Promise<Value> { progress, fulfill, reject, configure in
            captured = Callbacks(progress: progress, fulfill: fulfill, reject: reject)
            capturedConfiguration = configure
            configure.pause = {
                pauseCount.increment()
                log?.append("\(name).pause")
            }
            configure.resume = {
                resumeCount.increment()
                log?.append("\(name).resume")
            }
            configure.cancel = {
                cancelCount.increment()
                log?.append("\(name).cancel")
            }
        }
        let work = WorkHandle(
            callbacks: captured!,
            configuration: capturedConfiguration!,
            cancelCount: cancelCount,
            pauseCount: pauseCount,
            resumeCount: resumeCount
        )
        return (promise, work)
    }
}

/// A pending promise together with the handle of its work, so that a test can settle it later.
final class Deferred<Value: Sendable>: Sendable {
    let promise: Promise<Value>
    let work: WorkHandle<Value>

    init(_ name: String = "work", log: Recorder<String>? = nil) {
        (promise, work) = WorkHandle<Value>.makePending(name, log: log)
    }

    func fulfill(_ value: Value) { work.fulfill(value) }
    func reject(_ error: any Error) { work.reject(error) }
    func report(_ completed: Int64, of total: Int64? = nil) { work.report(completed, of: total) }

    var cancelCount: Int { work.cancelCount.value }
    var pauseCount: Int { work.pauseCount.value }
    var resumeCount: Int { work.resumeCount.value }
}

// MARK: - Reading outcomes

extension Result {
    /// The value, or `nil` for a failure.
    var value: Success? {
        if case .success(let value) = self { return value }
        return nil
    }

    /// The error, or `nil` for a success.
    var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension Promise {
    /// The fulfilled value, `nil` if pending or failed.
    var fulfilledValue: Value? { result?.value }

    /// The error it failed with, `nil` if pending or fulfilled.
    var failureError: (any Error)? { result?.error }
}

/// Asserts that `error` is the `TestError` `expected`.
func XCTAssertTestError(
    _ error: (any Error)?,
    _ expected: TestError,
    file: StaticString = #filePath,
    line: UInt = #line
) {
    XCTAssertEqual(error as? TestError, expected, "got \(String(describing: error))", file: file, line: line)
}

/// Asserts that `error` is a `CancellationError`.
func XCTAssertCancellation(_ error: (any Error)?, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertTrue(error is CancellationError, "expected CancellationError, got \(String(describing: error))", file: file, line: line)
}

/// Asserts that `error` is `PromiseError.abandoned`.
func XCTAssertAbandoned(_ error: (any Error)?, file: StaticString = #filePath, line: UInt = #line) {
    guard case .abandoned? = error as? PromiseError else {
        return XCTFail("expected PromiseError.abandoned, got \(String(describing: error))", file: file, line: line)
    }
}

// MARK: - Threads and stacks

/// The calling thread's id.
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}

/// Runs `body` on a new thread and waits until it has returned.
func runOnNewThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    done.wait()
}

/// Runs `body` on a new thread and waits up to `timeout` seconds for it to return. Returns whether
/// it returned in time, so that a deadlock fails the test instead of hanging the run.
func runOnNewThread(timeout: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.start()
    return done.wait(timeout: .now() + timeout) == .success
}

/// An address in the caller's stack frame, to measure how deep the stack has grown between two
/// points on one thread (the stack grows downwards on every platform Baton supports).
@inline(never)
func stackAddress() -> UInt {
    var marker: UInt8 = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
}
