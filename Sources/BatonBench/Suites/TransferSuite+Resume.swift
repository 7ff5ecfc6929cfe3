import Baton
import DemoServer
import Foundation

extension TransferSuite {
    /// The stored photo (`photos/1`, `size` bytes) downloaded through `HTTP1Transport` whole,
    /// and cut at half (`drop-after`) then resumed by the retry policy, in alternating rounds;
    /// the fastest round of each is kept. Rows: the bytes the server sent for each (its
    /// `bytes_sent`), and the time. The retry policy waits no time between attempts: the rows
    /// measure what resuming costs, not the backoff, which a user sets.
    static func resumedDownload(from server: ChildServer, token: String, size: Int, rounds: Int, folder: URL) throws -> [BenchResult] {
        var configuration = Client.Configuration(baseURL: server.baseURL)
        configuration.headers["Authorization"] = "Bearer \(token)"
        configuration.retryPolicy = RetryPolicy(baseDelay: .zero)
        let client = try Client(configuration: configuration, transport: HTTP1Transport())
        func bytesSent() throws -> Int { try value(of: client.send(Request<DemoServer.Stats>(.get, "_demo/stats"))).bytesSent }

        /// One download's seconds and the bytes the server sent for it; the file must be whole.
        func download(_ request: Request<Data>, to name: String) throws -> (seconds: Double, bytes: Int) {
            let before = try bytesSent()
            let destination = folder.appending(path: name)
            let (seconds, _) = try measured { _ = try value(of: client.download(request, to: destination)) }
            let bytes = try bytesSent() - before
            let length = (try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber)?.intValue
            guard length == size else { throw BenchFailure("a resumed download holds \(length ?? 0) bytes of \(size)") }
            try FileManager.default.removeItem(at: destination)
            return (seconds, bytes)
        }
        var whole: [(seconds: Double, bytes: Int)] = []
        var resumed: [(seconds: Double, bytes: Int)] = []
        for round in 0..<rounds {
            whole.append(try download(Request<Data>(.get, "photos/1"), to: "whole.jpg"))
            // A fault of its own each round, so that `times=1` cuts each round's first attempt.
            let cut = Request<Data>(.get, "photos/1", headers: ["X-Demo-Fault": "drop-after=\(size / 2);times=1;round=\(round)"])
            resumed.append(try download(cut, to: "resumed.jpg"))
        }
        let fastestWhole = whole.min { $0.seconds < $1.seconds }!
        let fastestResumed = resumed.min { $0.seconds < $1.seconds }!
        let mib = Double(1 << 20)
        return [
            BenchResult(name: "download.resumed_bytes", label: "\(size >> 20) MiB download cut at half and resumed: bytes on the wire",
                        value: Double(fastestResumed.bytes) / mib, unit: "MiB", baseline: Double(fastestWhole.bytes) / mib,
                        baselineLabel: "uninterrupted", target: .atMost(1.05)),
            BenchResult(name: "download.resumed", label: "  time, cut and resumed",
                        value: fastestResumed.seconds * 1000, unit: "ms", baseline: fastestWhole.seconds * 1000,
                        baselineLabel: "uninterrupted", target: .atMost(1.2)),
        ]
    }
}
