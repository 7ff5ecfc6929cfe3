import BatonSupport
import XCTest

/// The lines a server logs, and expectations fulfilled by lines yet to come: pass `append` as the
/// configuration's `log`, then wait for a line instead of for time.
final class ServerLogWatch: Sendable {
    private struct Waiter {
        var text: String
        var expectation: XCTestExpectation
    }

    private let state = Locked<(lines: [String], waiters: [Waiter])>(([], []))

    func append(_ line: String) {
        let matched = state.withLock { state in
            state.lines.append(line)
            let matched = state.waiters.filter { line.contains($0.text) }
            state.waiters.removeAll { line.contains($0.text) }
            return matched
        }
        for waiter in matched { waiter.expectation.fulfill() }
    }

    var lines: [String] { state.value.lines }

    /// An expectation fulfilled by the next line logged that contains `text`.
    func expectLine(containing text: String) -> XCTestExpectation {
        let expectation = XCTestExpectation(description: "the server logs a line containing \(text)")
        state.withLock { $0.waiters.append(Waiter(text: text, expectation: expectation)) }
        return expectation
    }
}
