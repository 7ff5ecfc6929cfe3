@testable import BatonSupport
@testable import BatonClient
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// A monitor that follows a client's calls: which started, which ended and how, how many ran at
/// once, and the most that ever did.
///
/// A call runs from its `started` event (sent as `send` is called) to its outcome (`succeeded` or
/// `failed`), which monitors receive before any handler of the caller's runs: so a batch cannot
/// start its next call before the tally has counted the one that ended.
final class CallTally: ClientMonitor {
    private struct State {
        var running = 0
        var most = 0
        var started: [String] = []
        var ended: [ClientEvent] = []
        var waiters: [(count: Int, expectation: XCTestExpectation)] = []
    }

    private let state = Locked(State())
    private let onEvent: @Sendable (ClientEvent) -> Void

    /// A tally that also hands every event to `onEvent`, after counting it.
    init(onEvent: @escaping @Sendable (ClientEvent) -> Void = { _ in }) {
        self.onEvent = onEvent
    }

    func receive(_ event: ClientEvent) {
        let fulfilled: [XCTestExpectation] = state.withLock { state in
            switch event.kind {
            case .started:
                state.started.append("\(event.request)")
                state.running += 1
                state.most = max(state.most, state.running)
                return []
            case .succeeded, .failed:
                state.running -= 1
                state.ended.append(event)
                let count = state.ended.count
                let reached = state.waiters.filter { $0.count <= count }.map(\.expectation)
                state.waiters.removeAll { $0.count <= count }
                return reached
            default:
                return []
            }
        }
        for expectation in fulfilled { expectation.fulfill() }
        onEvent(event)
    }

    /// The most calls that ran at once.
    var mostRunning: Int { state.withLock { $0.most } }

    /// The calls started, as `POST /reviews/1/photos`, in the order they started.
    var started: [String] { state.withLock { $0.started } }

    /// The outcome events of the calls that ended, in the order they ended.
    var ended: [ClientEvent] { state.withLock { $0.ended } }

    /// Fulfilled once `count` calls have ended (at once if they have).
    func expectEnded(_ count: Int) -> XCTestExpectation {
        let expectation = XCTestExpectation(description: "\(count) calls end")
        let reached = state.withLock { state in
            if state.ended.count >= count { return true }
            state.waiters.append((count, expectation))
            return false
        }
        if reached { expectation.fulfill() }
        return expectation
    }
}

/// Holds the attempts `holds` picks (every one by default) until `release` is signalled, once per
/// attempt held, telling `onHold` as each is held; the others pass at once.
struct GateAdapter: RequestAdapter {
    let release: DispatchSemaphore
    var holds: @Sendable (URLRequest) -> Bool = { _ in true }
    var onHold: @Sendable () -> Void = {}

    func adapt(_ request: URLRequest, context: AttemptContext) async throws -> URLRequest {
        guard holds(request) else { return request }
        onHold()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                release.wait()
                continuation.resume()
            }
        }
        return request
    }
}
