import Baton
import BatonSupport
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the playground writes: lines, and one progress bar that redraws in place on a terminal
/// or prints a plain line at each quarter passed when output goes to a file or a CI log. One lock
/// orders everything, so a bar and the lines of parallel uploads never garble each other.
///
/// On a terminal, lines are wrapped at spaces to its width, so an explanation never breaks in the
/// middle of a word, and the bar is cut to fit on one line (a bar that wraps cannot redraw in place).
final class Console: Sendable {
    static let shared = Console(isTerminal: isatty(STDOUT_FILENO) != 0, width: Console.terminalWidth) {
        FileHandle.standardOutput.write(Data($0.utf8))
    }

    private let isTerminal: Bool
    /// The terminal's width in columns, read at each write so that a resized window is followed.
    private let width: @Sendable () -> Int
    private let output: @Sendable (String) -> Void
    /// The bar showing, and the last quarter passed off a terminal; every write happens under
    /// this lock.
    private let screen = Locked((bar: String?.none, lastQuarter: -1))

    init(isTerminal: Bool, width: @escaping @Sendable () -> Int, output: @escaping @Sendable (String) -> Void) {
        self.isTerminal = isTerminal
        self.width = width
        self.output = output
    }

    /// Writes `text` on a line of its own (wrapped on a terminal), above the bar if one is showing.
    func line(_ text: String) {
        screen.withLock { screen in
            if isTerminal, screen.bar != nil { output("\r\u{1B}[K") }
            output((isTerminal ? Self.wrapped(text, width: width()) : text) + "\n")
            if isTerminal, let bar = screen.bar { output(bar) }
        }
    }

    /// Shows `progress` under `label`: a bar on a terminal; elsewhere a line each time a quarter
    /// is passed, with the exact percentage reached (a report may jump past several quarters).
    func progress(_ label: String, _ progress: PromiseProgress) {
        screen.withLock { screen in
            let fraction = min(max(progress.fractionCompleted ?? 0, 0), 1)
            let percent = Int((fraction * 100).rounded(.down))
            let counted = progress.total.map { "\(Self.size(progress.completed)) of \(Self.size($0))" } ?? Self.size(progress.completed)
            if isTerminal {
                let filled = Int(fraction * 24)
                let bar = "[\(String(repeating: "█", count: filled))\(String(repeating: "·", count: 24 - filled))] \(percent)% \(counted)"
                let text = Self.cut("   \(label) \(bar)", width: width())
                screen.bar = text
                output("\r\u{1B}[K" + text)
            } else {
                let quarter = Int(fraction * 4)
                guard quarter > screen.lastQuarter else { return }
                screen.lastQuarter = quarter
                output("   \(label): \(percent)% (\(counted))\n")
            }
        }
    }

    /// Ends the bar: its last state stays on screen.
    func endProgress() {
        screen.withLock { screen in
            if isTerminal, screen.bar != nil { output("\n") }
            screen = (nil, -1)
        }
    }

    // MARK: Layout

    /// `text` with each of its lines broken at spaces so that none is wider than `width`
    /// columns, continuation lines indented as the line they continue; the spaces inside a line
    /// (columns of a table) are kept. A word wider than a line is left whole on a line of its own.
    static func wrapped(_ text: String, width: Int) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let indent = String(line.prefix { $0 == " " })
            var lines: [String] = []
            var current = indent
            var rest = line.dropFirst(indent.count)
            while !rest.isEmpty {
                let gap = rest.prefix { $0 == " " }
                let word = rest.dropFirst(gap.count).prefix { $0 != " " }
                rest = rest.dropFirst(gap.count + word.count)
                if current != indent, columns(current + gap + word) > width {
                    lines.append(current)
                    current = indent + word
                } else {
                    current += gap + word
                }
            }
            lines.append(current)
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// `text` cut to `width` columns, ending in `…` when cut.
    static func cut(_ text: String, width: Int) -> String {
        guard columns(text) > width else { return text }
        var kept = ""
        for character in text {
            guard columns(kept) + columns(String(character)) < width else { break }
            kept.append(character)
        }
        return kept + "…"
    }

    /// The columns `text` takes on a terminal: two for the wide characters of East Asian scripts
    /// and most emoji, one for others.
    static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { sum, scalar in
            switch scalar.value {
            case 0x1100...0x115F, 0x2E80...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F,
                 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1FAFF, 0x20000...0x3FFFD:
                return sum + 2
            case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F:
                return sum  // combining marks, zero-width spaces and variation selectors
            default:
                return sum + 1
            }
        }
    }

    /// The terminal's width: `COLUMNS` if set, else what the terminal says, else 80.
    @Sendable static func terminalWidth() -> Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        #if canImport(Glibc)
        let request = UInt(TIOCGWINSZ)
        #else
        let request: UInt = 0x4008_7468  // Darwin's TIOCGWINSZ, a macro Swift does not import
        #endif
        let asked = ioctl(STDOUT_FILENO, request, &size)
        return asked == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    }

    /// `1.2 MB`, `300 KB`, `12 B`.
    static func size(_ bytes: Int64) -> String {
        if bytes >= 1_000_000 { return String(format: "%.1f MB", Double(bytes) / 1_000_000) }
        if bytes >= 1_000 { return "\(bytes / 1_000) KB" }
        return "\(bytes) B"
    }
}
