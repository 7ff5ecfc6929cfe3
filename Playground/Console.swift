import Baton
import Foundation

/// Where the playground writes: lines, and one progress bar that redraws in place on a terminal
/// or prints a plain line at each quarter when output goes to a file or a CI log. One lock
/// orders everything, so a bar and the lines of parallel uploads never garble each other.
// `lock` guards `bar` and `lastQuarter`; every write happens under it.
final class Console: @unchecked Sendable {
    static let shared = Console()

    private let lock = NSLock()
    private let isTerminal = isatty(STDOUT_FILENO) != 0
    private var bar: String?
    private var lastQuarter = -1

    /// Writes `text` on a line of its own, above the bar if one is showing.
    func line(_ text: String) {
        lock.withLock {
            if isTerminal, bar != nil { write("\r\u{1B}[K") }
            write(text + "\n")
            if isTerminal, let bar { write(bar) }
        }
    }

    /// Shows `progress` under `label`.
    func progress(_ label: String, _ progress: PromiseProgress) {
        lock.withLock {
            let fraction = progress.fractionCompleted ?? 0
            let counted = progress.total.map { "\(Self.size(progress.completed)) of \(Self.size($0))" } ?? Self.size(progress.completed)
            if isTerminal {
                let filled = Int(fraction * 24)
                let text = "   \(label) [\(String(repeating: "█", count: filled))\(String(repeating: "·", count: 24 - filled))] \(Int(fraction * 100))% \(counted)"
                bar = text
                write("\r\u{1B}[K" + text)
            } else {
                let quarter = Int(fraction * 4)
                guard quarter > lastQuarter else { return }
                lastQuarter = quarter
                write("   \(label): \(quarter * 25)% (\(counted))\n")
            }
        }
    }

    /// Ends the bar: its last state stays on screen.
    func endProgress() {
        lock.withLock {
            if isTerminal, bar != nil { write("\n") }
            bar = nil
            lastQuarter = -1
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
