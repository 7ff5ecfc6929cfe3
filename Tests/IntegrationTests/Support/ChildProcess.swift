import Foundation

/// Runs one test of this test binary again, in a new process, to show what survives a restart
/// or works across processes. The child finds its role in the environment: a test checks
/// ``ChildProcess/role`` first and, when it is set, does the child's part instead of its own,
/// ending with ``report(_:)``; the parent gets that report back from ``run(test:role:argument:)``.
enum ChildProcess {
    private static let roleKey = "BATON_TEST_CHILD_ROLE"
    private static let argumentKey = "BATON_TEST_CHILD_ARGUMENT"
    private static let reportKey = "BATON_TEST_CHILD_REPORT"

    /// The role this process was started for, and its argument; `nil` in the parent.
    static var role: (name: String, argument: String)? {
        let environment = ProcessInfo.processInfo.environment
        guard let name = environment[roleKey] else { return nil }
        return (name, environment[argumentKey] ?? "")
    }

    /// The child's response to its parent.
    static func report(_ text: String) throws {
        guard let path = ProcessInfo.processInfo.environment[reportKey] else { return }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    /// Runs `test` (as in `IntegrationTests.StoreIntegrationTests/test_x`) in a child process with
    /// `role` and `argument`, and returns what it reported, or `nil` if it reported nothing (it
    /// did not run, or failed before reporting) or did not exit cleanly.
    static func run(test: String, role: String, argument: String) throws -> String? {
        // A child that took the parent's path (its role misspelt) must not start another.
        guard self.role == nil else { throw CocoaError(.featureUnsupported) }
        let reportFile = FileManager.default.temporaryDirectory.appending(path: "baton-child-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: reportFile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = [test]
        var environment = ProcessInfo.processInfo.environment
        environment[roleKey] = role
        environment[argumentKey] = argument
        environment[reportKey] = reportFile.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return try? String(contentsOf: reportFile, encoding: .utf8)
    }
}
