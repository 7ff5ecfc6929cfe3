import DemoServer
import Dispatch
import Foundation

/// A DemoServer in a child process (this executable run with `--serve-demo`), so that what the
/// server holds (a stored photo, its buffers) does not count in the benchmark's own memory.
final class ChildServer {
    let baseURL: URL
    private let process: Process
    private let input: Pipe

    /// Starts the child, serving `https` with the loopback test identity when `tls`, and waits
    /// for the port it listens on.
    init(maxBodyBytes: Int, tls: Bool = false) throws {
        process = Process()
        process.executableURL = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--serve-demo", String(maxBodyBytes)] + (tls ? ["tls"] : [])
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) {
            line += byte
        }
        guard let url = URL(string: String(decoding: line, as: UTF8.self)), url.port != nil else {
            process.terminate()
            throw ChildServerFailure()
        }
        baseURL = url
    }

    /// Stops the child: it exits when its standard input closes.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    struct ChildServerFailure: Error, CustomStringConvertible {
        var description: String { "the child DemoServer did not report its address" }
    }

    /// The child's side: serves until standard input closes, after printing its base URL.
    static func serve(maxBodyBytes: Int, tls: Bool) -> Never {
        do {
            let server = try DemoServer.start(configuration: DemoServer.Configuration(
                tokenLifetime: 3600, maxBodyBytes: maxBodyBytes, tls: tls ? .loopback : nil
            ))
            FileHandle.standardOutput.write(Data((server.baseURL.absoluteString + "\n").utf8))
            _ = FileHandle.standardInput.readDataToEndOfFile()
            server.stop()
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("baton-bench: the child DemoServer failed: \(error)\n".utf8))
            exit(1)
        }
    }
}
