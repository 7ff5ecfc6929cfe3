import Baton
import DemoServer
import Foundation

// swift run playground [SCENARIO ...] [--base-url URL] [--tls] [--list] [--help]
//
// Runs Baton's main job for real: against DemoServer started in this process on a free port, or
// against a `demo-server` started separately (`--base-url`), over https with `--tls`. Exits
// non-zero when any scenario does not behave as it says.

let scenarios = [
    loginScenario, reviewWithPhotosScenario, expiredTokensScenario, failedPhotoScenario,
    cancelledUploadScenario, offlineAndImagesScenario, asyncAwaitScenario, photoStatesScenario,
    deviceSignInScenario,
]

let usage = """
usage: swift run playground [SCENARIO ...] [--base-url URL] [--tls] [--list] [--help]

Runs Baton against the demo API, every scenario in order unless some are named:
\(scenarios.map { "  \($0.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \($0.title)" }.joined(separator: "\n"))

  --base-url URL  talk to a demo server started separately (swift run demo-server --port 8080)
                  instead of one started in this process
  --tls           over https: DemoServer serves TLS with its loopback test certificate, and
                  Baton trusts the test root that issued it (also for demo-server --tls)
  --list          list the scenarios and exit
  --help          show this text

Exits with status 1 if a scenario does not behave as it says.
"""

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(0)
}
if arguments.contains("--list") {
    for scenario in scenarios { print("\(scenario.name.padding(toLength: 12, withPad: " ", startingAt: 0)) \(scenario.title)") }
    exit(0)
}
var baseURLText: String?
if let index = arguments.firstIndex(of: "--base-url") {
    guard index + 1 < arguments.count else {
        FileHandle.standardError.write(Data("playground: --base-url needs a URL\n".utf8))
        exit(2)
    }
    baseURLText = arguments[index + 1]
    arguments.removeSubrange(index...index + 1)
}
let overTLS = arguments.contains("--tls")
arguments.removeAll { $0 == "--tls" }
let unknown = arguments.filter { name in !scenarios.contains { $0.name == name } }
guard unknown.isEmpty else {
    FileHandle.standardError.write(Data("playground: no scenario \(unknown.map { "'\($0)'" }.joined(separator: ", ")); see --list\n".utf8))
    exit(2)
}
let chosen = arguments.isEmpty ? scenarios : scenarios.filter { arguments.contains($0.name) }

let server: DemoServer?
let baseURL: URL
if let baseURLText {
    do {
        // The client's own check, for its sentence: "localhost:8080" says to write http://localhost:8080/.
        baseURL = try Client(baseURL: baseURLText).configuration.baseURL
    } catch {
        FileHandle.standardError.write(Data("playground: \(error)\n".utf8))
        exit(2)
    }
    server = nil
    if overTLS, baseURL.scheme != "https" {
        FileHandle.standardError.write(Data("playground: --tls needs an https base URL (swift run demo-server --tls prints it)\n".utf8))
        exit(2)
    }
} else {
    server = try DemoServer.start(configuration: .init(tls: overTLS ? .loopback : nil))
    baseURL = server!.baseURL
}

let started = ContinuousClock.now
let session: Session
do {
    session = try Session(baseURL: baseURL, trustsTestRoot: overTLS)
} catch {
    FileHandle.standardError.write(Data("playground: \(error.localizedDescription)\n".utf8))
    exit(2)
}
Console.shared.line("Baton playground, against \(server == nil ? "the demo server at" : "DemoServer started in this process at") \(baseURL.absoluteString)"
    + (overTLS ? " (TLS: the test root trusted)" : ""))
if server == nil, baseURL.scheme == "https", !overTLS {
    Console.shared.line("   (for a demo-server started with --tls, add --tls, so that its test root is trusted)")
}

var failures: [String] = []
for scenario in chosen {
    let number = scenarios.firstIndex { $0.name == scenario.name }! + 1
    Console.shared.line("\n\(number). \(scenario.title)")
    Console.shared.line("   \(scenario.explanation)")
    do {
        try await scenario.run(session)
        Console.shared.line("   ✓ as expected")
    } catch {
        Console.shared.endProgress()
        Console.shared.line("   ✗ \(error)")
        failures.append(scenario.name)
    }
}

let figures = session.figures
let elapsed = (ContinuousClock.now - started).components
let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
Console.shared.line("""

Summary
   scenarios      \(chosen.count - failures.count) of \(chosen.count) behaved as they say\(failures.isEmpty ? "" : " (not: \(failures.joined(separator: ", ")))")
   requests       \(figures.requests) on the wire from the API client (replays after a refresh included)
   refreshes      \(figures.refreshes) token refresh\(figures.refreshes == 1 ? "" : "es")
   uploaded       \(Console.size(figures.bytesUploaded)) of photos
   time           \(String(format: "%.2f", seconds)) s
""")
session.finish()
server?.stop()
exit(failures.isEmpty ? 0 : 1)
