import Baton
import BatonLocking

/// The combinator rows of `baton-bench promise`: what `Promise.all` costs an input, and whether
/// that cost stays the same as the inputs grow (a combinator whose work per event scans every
/// input costs O(n²) over a batch, and shows here as a ratio far above 1).
///
/// - `promise.all.scaling`: the cost an input of `all` over many inputs, against the same over
///   few. Each input is made pending, combined, then fulfilled.
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

        let allMany = Measure.bestNanoseconds(runs: runs) { blackHole(allOfPending(many)) } / Double(many)
        let allFew = Measure.bestNanoseconds(runs: runs) { blackHole(allOfPending(few)) } / Double(few)
        let bytesMany = Measure.bestNanoseconds(runs: runs) { blackHole(allReportingBytes(manyReporting, reportsEach: reportsEach)) }
            / Double(manyReporting * reportsEach)
        let bytesFew = Measure.bestNanoseconds(runs: runs) { blackHole(allReportingBytes(fewReporting, reportsEach: reportsEach)) }
            / Double(fewReporting * reportsEach)
        let allStep = Measure.bestNanoseconds(runs: runs) { blackHole(allOfPending(stepCount)) } / Double(stepCount)
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

    /// `count` pending promises combined by `all`, then fulfilled one by one.
    static func allOfPending(_ count: Int) -> Int {
        var fulfils: [@Sendable (Int) -> Void] = []
        fulfils.reserveCapacity(count)
        var inputs: [Promise<Int>] = []
        inputs.reserveCapacity(count)
        for _ in 0..<count {
            inputs.append(Promise { _, fulfill, _, _ in fulfils.append(fulfill) })
        }
        let combined = Promise.all(inputs)
        for (index, fulfil) in fulfils.enumerated() { fulfil(index) }
        return (try? combined.result?.get())?.count ?? -1
    }

    /// `count` pending inputs combined by `all` under a progress handler (a bar), each reporting
    /// its bytes sent `reportsEach` times, round after round as uploads in a batch do, then
    /// fulfilled.
    static func allReportingBytes(_ count: Int, reportsEach: Int) -> Int64 {
        var reporters: [@Sendable (PromiseProgress) -> Void] = []
        var fulfils: [@Sendable (Int) -> Void] = []
        reporters.reserveCapacity(count)
        fulfils.reserveCapacity(count)
        var inputs: [Promise<Int>] = []
        inputs.reserveCapacity(count)
        for _ in 0..<count {
            inputs.append(Promise { progress, fulfill, _, _ in
                reporters.append(progress)
                fulfils.append(fulfill)
            })
        }
        let latest = Locked<Int64>(0)
        let combined = Promise.all(inputs).progress { progress in latest.withLock { $0 = progress.completed } }
        let size = Int64(reportsEach) * 1_000
        for round in 1...reportsEach {
            let sent = PromiseProgress(completed: Int64(round) * 1_000, total: size, kind: .bytesSent)
            for report in reporters { report(sent) }
        }
        for (index, fulfil) in fulfils.enumerated() { fulfil(index) }
        blackHole(combined)
        return latest.value
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
