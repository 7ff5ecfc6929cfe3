import Foundation

/// The process's peak resident memory (Linux's `VmHWM`), which a test resets before the work it
/// measures, so that what earlier tests used does not count.
enum PeakMemory {
    struct Unavailable: Error {}

    /// Resets the peak to the present resident memory (`/proc/self/clear_refs`, Linux 4.0 and
    /// later) and returns it, in bytes.
    static func reset() throws -> Int {
        try "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .ascii)
        return try read()
    }

    /// The peak resident memory since the last reset, in bytes.
    static func read() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .ascii)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kibibytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { throw Unavailable() }
        return kibibytes << 10
    }
}
