import Baton
import BatonLocking
import Foundation

/// Where the playground writes: lines, and one progress bar that redraws in place on a terminal
/// or prints a plain line at each quarter when output goes to a file or a CI log. One lock
/// orders everything, so a bar and the lines of parallel uploads never garble each other.
final class Console: Sendable {
    static let shared = Console()

    private let isTerminal = isatty(STDOUT_FILENO) != 0
    /// The bar showing, and the last quarter printed off a terminal; every write happens under
    /// this lock.
    private let screen = Locked((bar: String?.none, lastQuarter: -1))

    /// Writes `text` on a line of its own, above the bar if one is showing.
    func line(_ text: String) {
        screen.withLock { screen in
            if isTerminal, screen.bar != nil { write("\r\u{1B}[K") }
            write(text + "\n")
            if isTerminal, let bar = screen.bar { write(bar) }
        }
    }

    /// Shows `progress` under `label`.
    func progress(_ label: String, _ progress: PromiseProgress) {
        screen.withLock { screen in
            let fraction = progress.fractionCompleted ?? 0
            let counted = progress.total.map { "\(Self.size(progress.completed)) of \(Self.size($0))" } ?? Self.size(progress.completed)
            if isTerminal {
                let filled = Int(fraction * 24)
                let text = "   \(label) [\(String(repeating: "█", count: filled))\(String(repeating: "·", count: 24 - filled))] \(Int(fraction * 100))% \(counted)"
                screen.bar = text
                write("\r\u{1B}[K" + text)
            } else {
                let quarter = Int(fraction * 4)
                guard quarter > screen.lastQuarter else { return }
                screen.lastQuarter = quarter
                write("   \(label): \(quarter * 25)% (\(counted))\n")
            }
        }
    }

    /// Ends the bar: its last state stays on screen.
    func endProgress() {
        screen.withLock { screen in
            if isTerminal, screen.bar != nil { write("\n") }
            screen = (nil, -1)
        }
    }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// `1.2 MB`, `300 KB`, `12 B`.
    static func size(_ bytes: Int64) -> String {
        if bytes >= 1_000_000 { return String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        if bytes >= 1_000 { return "\(bytes / 1_000) KB" }
        return "\(bytes) B"
    }
}
