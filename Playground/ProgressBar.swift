import Baton
import Foundation

/// Draws progress on one terminal line that redraws in place, or, when standard output is not a
/// terminal (a pipe, a CI log), prints a plain line at each tenth of the way.
// `lock` guards `lastTenth`; drawing happens under it so lines never interleave.
final class ProgressBar: @unchecked Sendable {
    private let lock = NSLock()
    private var lastTenth = -1
    private let label: String
    private let isTerminal = isatty(STDOUT_FILENO) != 0

    init(_ label: String) {
        self.label = label
    }

    func draw(_ progress: PromiseProgress) {
        lock.lock()
        defer { lock.unlock() }
        let fraction = progress.fractionCompleted ?? 0
        if isTerminal {
            let width = 30
            let filled = Int(fraction * Double(width))
            let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
            FileHandle.standardOutput.write(Data("\r\(label) [\(bar)] \(Int(fraction * 100))% \(progress)".utf8))
        } else {
            let tenth = Int(fraction * 10)
            guard tenth > lastTenth else { return }
            lastTenth = tenth
            print("\(label) \(tenth * 10)% (\(progress))")
        }
    }

    /// Ends the bar's line on a terminal.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if isTerminal { FileHandle.standardOutput.write(Data("\n".utf8)) }
    }
}
