import DemoServer
import Foundation

/// Makes DemoServer's test root a system root for the benchmark's run, so that its `https` rows
/// compare Baton with URLSession against the same TLS server, each verifying its certificate.
///
/// URLSession on Linux trusts only the system's bundle (libcurl's; nothing a program sets adds a
/// root to it), so the benchmark runs itself again inside a private mount namespace (`unshare -rm`)
/// where the system bundle is replaced by one holding the test root too. Nothing changes on the
/// machine. Where user namespaces are not allowed, the `https` rows are left out, saying why.
enum TestRootTrust {
    private static let marker = "BATON_BENCH_TEST_ROOT_IS_SYSTEM_ROOT"
    private static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

    /// Runs the rest of the benchmark where the test root is trusted: in this process when it
    /// already is, else in a child that is (and then exits with its status). Returns when this
    /// process goes on: `nil` when the root is trusted, else why the `https` rows cannot run.
    static func establish(arguments: [String]) -> String? {
        if ProcessInfo.processInfo.environment[marker] == "1" { return nil }
        guard FileManager.default.fileExists(atPath: systemBundle), run("/usr/bin/env", ["unshare", "-rm", "true"]) == 0 else {
            return "URLSession on Linux trusts only the system's CA bundle, and this machine allows no private mount namespace (unshare -rm) to put the test root in it"
        }
        let bundle = FileManager.default.temporaryDirectory.appending(path: "baton-bench-roots-\(UUID().uuidString).pem")
        let system = (try? String(contentsOfFile: systemBundle, encoding: .utf8)) ?? ""
        guard (try? (system + "\n" + DemoServer.TLS.loopbackRootCertificatePEM + "\n").write(to: bundle, atomically: true, encoding: .utf8)) != nil else {
            try? FileManager.default.removeItem(at: bundle)
            return "the CA bundle with the test root could not be written to \(bundle.path)"
        }
        let executable = Bundle.main.executableURL?.path ?? CommandLine.arguments[0]
        let script = "mount --bind \"$1\" \"$2\" && shift 2 && exec \"$@\""
        let status = run("/usr/bin/env", ["unshare", "-rm", "sh", "-c", script, "sh", bundle.path, systemBundle, executable] + arguments,
                         environment: [marker: "1", "SSL_CERT_FILE": systemBundle])
        // `exit` runs no `defer`: the bundle goes first.
        try? FileManager.default.removeItem(at: bundle)
        exit(status)
    }

    /// Runs `tool` with `arguments` (output shared with this process); its exit status.
    private static func run(_ tool: String, _ arguments: [String], environment: [String: String] = [:]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if environment.isEmpty {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
        }
        do {
            try process.run()
        } catch {
            return -1
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
