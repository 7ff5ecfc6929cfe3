import Foundation

/// What one transfer of the `upload` suite cost.
struct TransferSample: Sendable {
    /// Wall-clock seconds.
    var seconds: Double
    /// The process's CPU seconds (the server runs in a child process: this is the client's alone).
    var cpuSeconds: Double
    /// How many MiB the peak resident memory rose above where it stood before.
    var growthMiB: Double

    /// Runs `body` once and measures it.
    static func measuring(_ body: () throws -> Void) throws -> TransferSample {
        Measure.resetPeakResident()
        let peakBefore = Measure.peakResidentBytes() ?? 0
        let cpuBefore = Measure.processCPUSeconds()
        let start = ContinuousClock.now
        try body()
        let seconds = (ContinuousClock.now - start).timeInterval
        let cpuSeconds = Measure.processCPUSeconds() - cpuBefore
        let growth = Double(max(0, (Measure.peakResidentBytes() ?? 0) - peakBefore)) / Double(1 << 20)
        return TransferSample(seconds: seconds, cpuSeconds: cpuSeconds, growthMiB: growth)
    }
}

/// Sides of a transfer measured in interleaved rounds: each round runs every side once, in an
/// order that turns round by round, so that a busy neighbour slows the sides run back to back
/// alike; each row is the median of the rounds' own ratios, which the odd round a burst of load
/// favoured does not decide. One transfer at a time, as the rows compare throughput.
struct TransferRounds {
    /// The samples of each side by name, one per round.
    var samples: [String: [TransferSample]] = [:]

    /// Runs `sides` for `rounds` rounds; the side named `raw` is every row's baseline.
    static func run(_ sides: [(name: String, transfer: () throws -> Void)], rounds: Int) throws -> TransferRounds {
        var measured = TransferRounds()
        // Each side once first, unmeasured: the first transfer of a run pays for what later ones
        // find ready (connections, file pages, the server's first read), which would weigh on
        // whichever side a round starts with.
        for side in sides { try side.transfer() }
        for round in 0..<rounds {
            for offset in 0..<sides.count {
                let side = sides[(round + offset) % sides.count]
                measured.samples[side.name, default: []].append(try TransferSample.measuring(side.transfer))
            }
        }
        return measured
    }

    /// The rows of `side` against `raw` (URLSession) for a transfer of `mib` MiB: throughput
    /// (`name`), CPU per MiB (`name.cpu`), and, when `memoryName` is given (else
    /// `name.rss_growth_mib`), the highest peak memory growth of its rounds.
    func rows(_ name: String, mib: Double, _ label: String, side: String, target: Double, memoryName: String? = nil) -> [BenchResult] {
        let ours = samples[side] ?? [], raw = samples["raw"] ?? []
        let rate = { (sample: TransferSample) in mib / sample.seconds }
        let cpu = { (sample: TransferSample) in sample.cpuSeconds * 1000 / mib }
        let uploading = name.hasPrefix("up")
        return [
            BenchResult(name: name, label: "\(Int(mib)) MiB photo \(label)", value: Measure.median(ours.map(rate)), unit: "MiB/s",
                        baseline: Measure.median(raw.map(rate)), baselineLabel: "URLSession", target: .atLeast(target),
                        pairedRatio: Measure.median(zip(ours, raw).map { rate($0) / rate($1) })),
            BenchResult(name: "\(name).cpu", label: "  CPU per MiB while \(uploading ? "uploading" : "downloading")",
                        value: Measure.median(ours.map(cpu)), unit: "ms", baseline: Measure.median(raw.map(cpu)), baselineLabel: "URLSession",
                        pairedRatio: Measure.median(zip(ours, raw).map { cpu($0) / cpu($1) })),
            BenchResult(name: memoryName ?? "\(name).rss_growth_mib", label: "  peak memory growth while \(uploading ? "uploading" : "downloading")",
                        value: ours.map(\.growthMiB).max() ?? 0, unit: "MiB", baseline: raw.map(\.growthMiB).max() ?? 0,
                        baselineLabel: "URLSession", target: .valueAtMost(64, unit: "MiB")),
        ]
    }
}
