import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `baton-bench server`: requests per second of `GET /health` through URLSession at concurrency 1 and
/// 32, against DemoServer and, as the baseline, against python3's `http.server.ThreadingHTTPServer`
/// answering the same body on loopback in the same run. The ratio is DemoServer / python, so above 1
/// is faster. Without python3 the baseline is missing: the rows say so and their ratio is n/a.
enum ServerSuite {
    static func run(quick: Bool) throws -> [BenchResult] {
        let server = try DemoServer.start()
        defer { server.stop() }
        let python = PythonHealthServer.start()
        defer { python?.stop() }
        if python == nil {
            FileHandle.standardError.write(Data("baton-bench server: python3 not found or failed to start; no baseline\n".utf8))
        }
        let requests = quick ? 300 : 5_000
        let runs = quick ? 1 : 3
        var results: [BenchResult] = []
        for concurrency in [1, 32] {
            let demo = best(of: runs) {
                requestsPerSecond(server.baseURL, requests: requests, concurrency: concurrency)
            }
            let baseline = python.map { python in
                best(of: runs) { requestsPerSecond(python.baseURL, requests: requests, concurrency: concurrency) }
            }
            results.append(BenchResult(
                name: "server.health.c\(concurrency).vs_python",
                label: "GET /health, \(concurrency) at once",
                value: demo, unit: "req/s", baseline: baseline ?? 0,
                baselineLabel: baseline == nil ? "python3 missing" : "python3"
            ))
        }
        return results
    }

    private static func best(of runs: Int, _ measure: () -> Double) -> Double {
        (0..<max(1, runs)).map { _ in measure() }.max() ?? 0
    }

    /// `requests` GETs of `/health` through one URLSession, `concurrency` in flight at a time, each
    /// worker starting its next request when one finishes; returns requests per second. A short warm-up
    /// opens the connections first, so the figure is keep-alive throughput.
    private static func requestsPerSecond(_ baseURL: URL, requests: Int, concurrency: Int) -> Double {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = concurrency
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        let request = URLRequest(url: baseURL.appendingPathComponent("health"))
        let failures = WorkCounter(0)
        func drive(_ count: Int) -> Double {
            LoadDriver.requestsPerSecond(requests: count, concurrency: concurrency) { done in
                session.dataTask(with: request) { data, response, _ in
                    if (response as? HTTPURLResponse)?.statusCode != 200 || data?.count != 15 { failures.add() }
                    done()
                }.resume()
            }
        }
        _ = drive(concurrency * 4)
        let rate = drive(requests)
        if failures.value > 0 {
            FileHandle.standardError.write(Data("baton-bench server: \(failures.value) requests to \(baseURL) failed\n".utf8))
        }
        return rate
    }
}

/// python3's `ThreadingHTTPServer` answering `GET /health` with DemoServer's exact body, on a free
/// loopback port, run as a child process for as long as the suite needs it.
private final class PythonHealthServer {
    /// HTTP/1.1 (keep-alive, as DemoServer serves), Nagle off and a listen backlog of 1024 (as
    /// DemoServer's sockets), so that the comparison is of the servers, not of their socket options.
    private static let script = """
        import http.server, sys
        class Health(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True
            def do_GET(self):
                body = b'{"status":"ok"}' if self.path == "/health" else b'{"message":"not_found"}'
                self.send_response(200 if self.path == "/health" else 404)
                self.send_header("Content-Type", "application/json; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *args):
                pass
        class Server(http.server.ThreadingHTTPServer):
            daemon_threads = True
            request_queue_size = 1024
        server = Server(("127.0.0.1", 0), Health)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    let baseURL: URL
    private let process: Process

    private init(baseURL: URL, process: Process) {
        self.baseURL = baseURL
        self.process = process
    }

    /// The running server, or nil when python3 is not on PATH or did not report its port.
    static func start() -> PythonHealthServer? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        guard let python = paths.map({ "\($0)/python3" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = ["-c", script]
        let output = Pipe()
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            return nil
        }
        // The first line is the port; an empty read means python exited before printing it.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line += chunk
        }
        guard let port = UInt16(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
              let url = URL(string: "http://127.0.0.1:\(port)")
        else {
            PythonHealthServer(baseURL: URL(fileURLWithPath: "/"), process: process).stop()
            return nil
        }
        return PythonHealthServer(baseURL: url, process: process)
    }

    /// Ends the child within about two seconds whatever it does. `Process.waitUntilExit` is
    /// not used: on Linux it can miss the child's exit and wait forever.
    func stop() {
        let pid = process.processIdentifier
        guard pid > 0 else { return }
        kill(pid, SIGTERM)
        for _ in 0..<200 {
            var status: Int32 = 0
            let reaped = waitpid(pid, &status, WNOHANG)
            if reaped == pid || (reaped < 0 && errno == ECHILD) { return }  // exited (ECHILD: Foundation reaped it)
            usleep(10_000)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }
}
