import Baton
import BatonSupport

/// The combinator rows of `baton-bench promise`: what `Promise.all` costs an input, and whether
/// that cost stays the same as the inputs grow (a combinator whose work per event scans every
/// input costs O(n²) over a batch, and shows here as a ratio far above 1).
///
/// - `promise.all.scaling`: the cost an input of `all` over many inputs, against the same over
///   few: combining pending inputs, then fulfilling each (the inputs are made before the clock
///   starts, since making promises is not what combining costs).
/// - `promise.all.bytes_scaling`: the cost of one byte report through `all` when every input
///   reports bytes a hundred times (uploads in a batch), over many inputs against few.
/// - `promise.all.vs_step`: the cost an input of `all` against creating a promise, adding a
///   handler and fulfilling it: what combining adds to the inputs' own cost.
enum CombinatorBench {
    static func run(quick: Bool, runs: Int) -> [BenchResult] {
        let many = quick ? 10_000 : 100_000
        let few = 1_000
        let reportsEach = 100
        let manyReporting = quick ? 1_000 : 10_000
        let fewReporting = 100
        let stepCount = 10_000

        let allMany = allOfPending(many, runs: runs)
        let allFew = allOfPending(few, runs: runs)
        let bytesMany = allReportingBytes(manyReporting, reportsEach: reportsEach, runs: runs)
        let bytesFew = allReportingBytes(fewReporting, reportsEach: reportsEach, runs: runs)
        let allStep = allOfPending(stepCount, runs: runs)
        let step = Measure.bestNanoseconds(runs: runs) { blackHole(createHandleFulfil(stepCount)) } / Double(stepCount)

        return [
            BenchResult(name: "promise.all.scaling", label: "all, an input (\(many.formatted()) inputs)",
                        value: allMany, unit: "ns", baseline: allFew, baselineLabel: "\(few.formatted()) inputs",
                        target: .atMost(1.5)),
            BenchResult(name: "promise.all.bytes_scaling",
                        label: "all, a byte report (\(manyReporting.formatted()) inputs, \(reportsEach) each)",
                        value: bytesMany, unit: "ns", baseline: bytesFew, baselineLabel: "\(fewReporting) inputs",
                        target: .atMost(1.5)),
            BenchResult(name: "promise.all.vs_step", label: "all, an input (\(stepCount.formatted()) inputs)",
                        value: allStep, unit: "ns", baseline: step, baselineLabel: "create + handler + fulfil",
                        target: .atMost(3)),
        ]
    }

    /// Pending inputs and what settles them, made before the clock starts: creating promises is
    /// not what a combinator costs.
    private struct Inputs {
        var promises: [Promise<Int>] = []
        var reporters: [@Sendable (PromiseProgress) -> Void] = []
        var fulfils: [@Sendable (Int) -> Void] = []

        init(_ count: Int) {
            promises.reserveCapacity(count)
            reporters.reserveCapacity(count)
            fulfils.reserveCapacity(count)
            for _ in 0..<count {
                promises.append(Promise { progress, fulfill, _, _ in
                    reporters.append(progress)
                    fulfils.append(fulfill)
                })
            }
        }
    }

    /// Nanoseconds `body` takes over inputs made afresh for each run, best of `runs`.
    private static func bestNanoseconds(runs: Int, inputs count: Int, _ body: (Inputs) -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<max(1, runs) {
            let inputs = Inputs(count)
            best = min(best, Measure.bestNanoseconds(runs: 1) { body(inputs) })
        }
        return best
    }

    /// `all` over `count` pending inputs, each then fulfilled.
    static func allOfPending(_ count: Int, runs: Int) -> Double {
        bestNanoseconds(runs: runs, inputs: count) { inputs in
            let combined = Promise.all(inputs.promises)
            for (index, fulfil) in inputs.fulfils.enumerated() { fulfil(index) }
            blackHole((try? combined.result?.get())?.count)
        } / Double(count)
    }

    /// `all` over `count` inputs under a progress handler (a bar), each reporting its bytes sent
    /// `reportsEach` times, round after round as uploads in a batch do; per report.
    static func allReportingBytes(_ count: Int, reportsEach: Int, runs: Int) -> Double {
        bestNanoseconds(runs: runs, inputs: count) { inputs in
            let latest = Locked<Int64>(0)
            let combined = Promise.all(inputs.promises).progress { progress in latest.withLock { $0 = progress.completed } }
            let size = Int64(reportsEach) * 1_000
            for round in 1...reportsEach {
                let sent = PromiseProgress(completed: Int64(round) * 1_000, total: size, kind: .bytesSent)
                for report in inputs.reporters { report(sent) }
            }
            for (index, fulfil) in inputs.fulfils.enumerated() { fulfil(index) }
            blackHole(combined)
            blackHole(latest.value)
        } / Double(count * reportsEach)
    }

    /// The baseline of `promise.all.vs_step`: a promise made, a handler added, the promise fulfilled.
    static func createHandleFulfil(_ count: Int) -> Int {
        var sum = 0
        for index in 0..<count {
            var fulfil: (@Sendable (Int) -> Void)?
            let promise = Promise<Int> { _, fulfill, _, _ in fulfil = fulfill }
            let step = promise.success { $0 &+ 1 }
            fulfil?(index)
            sum &+= (try? step.result?.get()) ?? 0
        }
        return sum
    }
}
