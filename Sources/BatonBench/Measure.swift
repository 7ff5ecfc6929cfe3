#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Baton
import BatonSupport
import Dispatch
import Foundation

/// Timing and allocation helpers shared by the suites.
enum Measure {
    /// The median of `values` (the mean of the middle two for an even count); `values` is not empty.
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
    }

    /// Nanoseconds `body` takes, best of `runs` (the least disturbed run).
    static func bestNanoseconds(runs: Int, _ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<max(1, runs) {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
            best = min(best, elapsed)
        }
        return best
    }

    /// Async version of ``bestNanoseconds(runs:_:)``.
    static func bestNanoseconds(runs: Int, _ body: () async -> Void) async -> Double {
        var best = Double.infinity
        for _ in 0..<max(1, runs) {
            let start = DispatchTime.now().uptimeNanoseconds
            await body()
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
            best = min(best, elapsed)
        }
        return best
    }

    /// CPU time this process has used so far, user and system, in seconds (`getrusage`): every
    /// thread's, so a side's CPU per request is its difference over the side's run divided by its
    /// requests, when nothing else runs in the process meanwhile.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// Resident memory of this process in bytes (Linux, from /proc/self/statm); `nil` elsewhere.
    ///
    /// Coarse (whole pages), so callers measure many items at once and divide; and freed memory
    /// is reused before the process grows, so memory probes run before anything else frees.
    static func residentBytes() -> Int? {
        #if os(Linux)
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
        #else
        return nil
        #endif
    }

    /// Resident memory once the allocator has handed back what it holds free (glibc's
    /// `malloc_trim`, looked up at run time): what is still in use, as a row of memory kept after
    /// work measures it. `nil` off Linux.
    static func residentBytesInUse() -> Int? {
        #if os(Linux)
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        #endif
        return residentBytes()
    }

    /// The process's peak resident memory (`VmHWM`), in bytes; `nil` off Linux.
    static func peakResidentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kib = Int(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kib * 1024
    }

    /// Starts the peak over from the current resident memory (Linux 4.0 and later).
    static func resetPeakResident() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }
}

/// Waits on this thread for `promise` to settle; returns its value or throws its error.
func value<T: Sendable>(of promise: Promise<T>) throws -> T {
    let done = DispatchSemaphore(value: 0)
    let outcome = Locked<Result<T, any Error>?>(nil)
    promise.then { result in
        outcome.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return try outcome.withLock { $0! }.get()
}

/// Keeps the optimiser from discarding work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
