import Foundation

// baton-bench [SUITE ...] [--quick] [--json]
//
// Measures Baton against baselines run in the same process, and prints each figure with its
// ratio (Baton / baseline). Suites: promise, server, client, auth, upload, store, stream; with none named, runs
// them all.
// `--quick` uses small counts (a smoke run for CI); `--json` prints one JSON array of
// {"name", "value", "unit", "baseline", "ratio"} objects instead of tables.

let arguments = Array(CommandLine.arguments.dropFirst())
// The transfer suite's server, run in a child process of this executable.
if arguments.first == "--serve-demo" {
    ChildServer.serve(maxBodyBytes: Int(arguments.dropFirst().first ?? "") ?? 64 << 20, tls: arguments.contains("tls"))
}
let quick = arguments.contains("--quick")
let json = arguments.contains("--json")
let knownSuites = ["promise", "server", "client", "auth", "upload", "store", "stream"]
let unknownFlags = arguments.filter { $0.hasPrefix("--") && !["--quick", "--json"].contains($0) }
let named = arguments.filter { !$0.hasPrefix("--") }
let unknownSuites = named.filter { !knownSuites.contains($0) }

if !unknownFlags.isEmpty || !unknownSuites.isEmpty || arguments.contains("--help") {
    let problem = (unknownFlags + unknownSuites).map { "'\($0)'" }.joined(separator: ", ")
    if !problem.isEmpty { FileHandle.standardError.write(Data("baton-bench: unknown \(problem)\n".utf8)) }
    print("usage: baton-bench [\(knownSuites.joined(separator: "|"))]... [--quick] [--json]")
    exit(problem.isEmpty ? 0 : 2)
}

let suites = named.isEmpty ? knownSuites : named
// The https rows of the client and upload suites need the test root trusted by URLSession too.
let httpsUnavailable = suites.contains("client") || suites.contains("upload") ? TestRootTrust.establish(arguments: arguments) : nil
if let httpsUnavailable { FileHandle.standardError.write(Data("baton-bench: the https rows are left out: \(httpsUnavailable)\n".utf8)) }
var all: [BenchResult] = []
for suite in suites {
    let results: [BenchResult]
    do {
        switch suite {
        case "promise": results = await PromiseSuite.run(quick: quick)
        case "server": results = try ServerSuite.run(quick: quick)
        case "client": results = try ClientSuite.run(quick: quick, https: httpsUnavailable == nil)
        case "auth": results = try AuthSuite.run(quick: quick)
        case "upload": results = try TransferSuite.run(quick: quick, https: httpsUnavailable == nil)
        case "store": results = try StoreSuite.run(quick: quick)
        case "stream": results = try StreamSuite.run(quick: quick)
        default: results = []
        }
    } catch {
        FileHandle.standardError.write(Data("baton-bench: suite \(suite) failed: \(error)\n".utf8))
        exit(1)
    }
    all += results
    if !json { Report.printTable(suite: suite, results) }
}
if json { Report.printJSON(all) }
