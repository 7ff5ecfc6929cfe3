import Baton

/// `baton-bench promise`: what a promise step costs, against the two ways of chaining work that
/// Swift offers without a library.
///
/// - closure: a continuation-passing chain of plain closures, each step allocating its
///   continuation (driven from a loop, since a recursive chain a million deep would overflow the
///   stack).
/// - direct closure, for scale: a chain of plain functions with no continuations, the floor
///   under any chaining mechanism.
/// - Task-per-step: Swift concurrency, each step a `Task { }` awaiting the previous step's value.
enum PromiseSuite {
    static func run(quick: Bool) async -> [BenchResult] {
        let steps = quick ? 100_000 : 1_000_000
        let taskSteps = quick ? 10_000 : 100_000
        let creations = quick ? 100_000 : 1_000_000
        let taskCreations = quick ? 10_000 : 100_000
        let runs = quick ? 2 : 5
        // First, before any other measurement frees memory that later allocations would reuse.
        let memory = pendingBytes(count: quick ? 100_000 : 500_000)

        let batonStep = Measure.bestNanoseconds(runs: runs) { blackHole(batonChain(steps: steps)) } / Double(steps)
        let closureStep = Measure.bestNanoseconds(runs: runs) { blackHole(closureChain(steps: steps)) } / Double(steps)
        let directStep = Measure.bestNanoseconds(runs: runs) { blackHole(directClosureChain(steps: steps)) } / Double(steps)
        let taskStep = await Measure.bestNanoseconds(runs: runs) { blackHole(await taskChain(steps: taskSteps)) }
            / Double(taskSteps)

        let batonCreate = Measure.bestNanoseconds(runs: runs) { blackHole(batonCreateFulfil(creations)) }
            / Double(creations)
        let closureCreate = Measure.bestNanoseconds(runs: runs) { blackHole(closureCreateCall(creations)) }
            / Double(creations)
        let taskCreate = await Measure.bestNanoseconds(runs: runs) { blackHole(await taskCreateAwait(taskCreations)) }
            / Double(taskCreations)

        let stepsLabel = steps.formatted()
        var results = [
            BenchResult(name: "promise.step.vs_closure", label: "step (\(stepsLabel)-step chain)",
                        value: batonStep, unit: "ns", baseline: closureStep, baselineLabel: "closure",
                        target: .atMost(5)),
            BenchResult(name: "promise.step.vs_direct_closure", label: "step (\(stepsLabel)-step chain)",
                        value: batonStep, unit: "ns", baseline: directStep, baselineLabel: "direct closure"),
            BenchResult(name: "promise.step.vs_task", label: "step (\(stepsLabel)-step chain)",
                        value: batonStep, unit: "ns", baseline: taskStep, baselineLabel: "Task-per-step",
                        target: .atMost(0.5)),
            BenchResult(name: "promise.create_fulfil.vs_closure", label: "create and fulfil",
                        value: batonCreate, unit: "ns", baseline: closureCreate, baselineLabel: "closure"),
            BenchResult(name: "promise.create_fulfil.vs_task", label: "create and fulfil",
                        value: batonCreate, unit: "ns", baseline: taskCreate, baselineLabel: "Task"),
        ]
        results += CombinatorBench.run(quick: quick, runs: runs)
        if let memory {
            results.append(BenchResult(
                name: "promise.pending_bytes.vs_closure", label: "bytes per pending promise",
                value: memory.promise, unit: "B", baseline: memory.closure, baselineLabel: "closure"))
            results.append(BenchResult(
                name: "promise.pending_step_bytes.vs_closure", label: "bytes per pending chained step",
                value: memory.step, unit: "B", baseline: memory.closure, baselineLabel: "closure"))
        }
        return results
    }

    // MARK: - Chains

    static func batonChain(steps: Int) -> Int {
        var fulfil: (@Sendable (Int) -> Void)?
        let root = Promise<Int> { _, fulfill, _, _ in fulfil = fulfill }
        var last = root
        for _ in 0..<steps { last = last.success { $0 &+ 1 } }
        fulfil?(0)
        return (try? last.result?.get()) ?? -1
    }

    /// Baseline (a): continuation-passing style. Each step is a closure built up front; run from a
    /// loop (a recursive chain this deep would overflow the stack), each step receives a freshly
    /// allocated continuation closure and passes its result to it.
    static func closureChain(steps: Int) -> Int {
        typealias Step = (Int, @escaping (Int) -> Void) -> Void
        var chain: [Step] = []
        chain.reserveCapacity(steps)
        for index in 0..<steps {
            let increment = index % 3 + 1  // a value that varies, so each step allocates its context
            chain.append { value, continuation in continuation(value &+ increment) }
        }
        let current = Accumulator()
        for step in chain { step(current.value) { current.value = $0 } }
        return current.value
    }

    /// The floor under any chain: direct-style closures, one allocation per step and no
    /// continuation at all. Reported for scale.
    static func directClosureChain(steps: Int) -> Int {
        var functions: [(Int) -> Int] = []
        functions.reserveCapacity(steps)
        for index in 0..<steps {
            let increment = index % 3 + 1
            functions.append { $0 &+ increment }
        }
        var value = 0
        for function in functions { value = function(value) }
        return value
    }

    static func taskChain(steps: Int) async -> Int {
        var last = Task<Int, Never> { 0 }
        for _ in 0..<steps {
            let previous = last
            last = Task { await previous.value &+ 1 }
        }
        return await last.value
    }

    // MARK: - Create and fulfil

    static func batonCreateFulfil(_ count: Int) -> Int {
        var sum = 0
        for index in 0..<count {
            let promise = Promise<Int> { _, fulfill, _, _ in fulfill(index) }
            sum &+= (try? promise.result?.get()) ?? 0
        }
        return sum
    }

    static func closureCreateCall(_ count: Int) -> Int {
        // Stored, so the closure escapes and allocates its context as a callback would.
        var slot: [() -> Int] = [{ 0 }]
        var sum = 0
        for index in 0..<count {
            slot[0] = { index &+ 1 }
            sum &+= slot[0]()
        }
        return sum
    }

    static func taskCreateAwait(_ count: Int) async -> Int {
        var sum = 0
        for index in 0..<count { sum &+= await Task { index }.value }
        return sum
    }

    // MARK: - Memory

    /// Resident bytes held by one pending promise (with the fulfil callback its work keeps), by one
    /// pending chained step, and by one pending closure continuation.
    static func pendingBytes(count: Int) -> (promise: Double, step: Double, closure: Double)? {
        var fulfils: [@Sendable (Int) -> Void] = []
        var promises: [Promise<Int>] = []
        var steps: [Promise<Int>] = []
        var closures: [(Int) -> Int] = []
        fulfils.reserveCapacity(count)
        promises.reserveCapacity(count)
        steps.reserveCapacity(count)
        closures.reserveCapacity(count)

        guard let start = Measure.residentBytes() else { return nil }
        for _ in 0..<count {
            promises.append(Promise { _, fulfill, _, _ in fulfils.append(fulfill) })
        }
        guard let afterPromises = Measure.residentBytes() else { return nil }
        for promise in promises { steps.append(promise.success { $0 &+ 1 }) }
        guard let afterSteps = Measure.residentBytes() else { return nil }
        for index in 0..<count {
            let increment = index % 3 + 1
            closures.append { $0 &+ increment }
        }
        guard let afterClosures = Measure.residentBytes() else { return nil }

        for fulfil in fulfils { fulfil(1) }
        blackHole(steps)
        blackHole(closures)
        let perItem = { (from: Int, to: Int) in Double(to - from) / Double(count) }
        return (perItem(start, afterPromises), perItem(afterPromises, afterSteps), perItem(afterSteps, afterClosures))
    }
}

/// The running value of the continuation-passing baseline.
private final class Accumulator {
    var value = 0
}
