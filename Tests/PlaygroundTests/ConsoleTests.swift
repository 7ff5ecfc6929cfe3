import Baton
import BatonSupport
@testable import Playground
import XCTest

/// The playground's console: lines wrapped to the terminal at spaces, a bar that fits on one
/// line, and, off a terminal, progress lines with the percentage reached.
final class ConsoleTests: XCTestCase {
    /// A console writing into `written`.
    private func console(isTerminal: Bool, width: Int, into written: Locked<String>) -> Console {
        Console(isTerminal: isTerminal, width: { width }) { text in written.withLock { $0 += text } }
    }

    private static let explanation = "   The server fails the second of two photos once (X-Demo-Fault); its outcome says so and carries its endpoint, which is sent again."

    func test_onATerminal_linesWrapAtSpaces_toItsWidth_indentedAsTheyBegan() {
        let written = Locked("")
        console(isTerminal: true, width: 40, into: written).line(Self.explanation)

        let lines = written.value.split(separator: "\n").map(String.init)
        XCTAssertGreaterThan(lines.count, 3)
        for line in lines {
            XCTAssertLessThanOrEqual(line.count, 40, line)
            XCTAssertTrue(line.hasPrefix("   ") && !line.hasPrefix("    "), "indented as the first line: \(line)")
        }
        XCTAssertEqual(lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " "), Self.explanation.trimmingCharacters(in: .whitespaces), "no word broken or lost")
    }

    func test_wrapping_keepsTheColumnsOfATable_andCountsWideCharactersTwice() {
        XCTAssertEqual(Console.wrapped("   time           0.29 s", width: 80), "   time           0.29 s")
        XCTAssertEqual(Console.wrapped("山田さん、ありがとう ございます", width: 20), "山田さん、ありがとう\nございます")
        XCTAssertEqual(Console.wrapped("a https://example.com/a-very-long-word b", width: 10), "a\nhttps://example.com/a-very-long-word\nb")
    }

    func test_offATerminal_nothingIsWrapped() {
        let written = Locked("")
        console(isTerminal: false, width: 40, into: written).line(Self.explanation)
        XCTAssertEqual(written.value, Self.explanation + "\n")
    }

    func test_onATerminal_theBarFitsOnOneLine() {
        let written = Locked("")
        console(isTerminal: true, width: 50, into: written)
            .progress("a photo with a long name", PromiseProgress(completed: 20_000_000, total: 40_000_000, kind: .bytesSent))

        let bar = written.value.replacingOccurrences(of: "\r\u{1B}[K", with: "")
        XCTAssertLessThanOrEqual(Console.columns(bar), 50, bar)
        XCTAssertTrue(bar.hasSuffix("…"), bar)
    }

    /// A report at 20% says 20%, not the quarter below it; one at 80% says 80%; a report in a
    /// quarter already shown prints nothing.
    func test_offATerminal_eachQuarterPassed_printsThePercentageReached() {
        let written = Locked("")
        let console = console(isTerminal: false, width: 80, into: written)
        for completed: Int64 in [20, 22, 80, 100] {
            console.progress("photo", PromiseProgress(completed: completed, total: 100, kind: .bytesSent))
        }
        XCTAssertEqual(written.value, "   photo: 20% (20 B of 100 B)\n   photo: 80% (80 B of 100 B)\n   photo: 100% (100 B of 100 B)\n")
    }
}
