import Baton
import DemoServer
import Foundation

extension TransferSuite {
    /// The stored photo (`photos/1`, `size` bytes) downloaded through `HTTP1Transport` whole,
    /// and cut at half (`drop-after`) then resumed by the retry policy, in alternating rounds.
    /// Rows: the bytes the server sent for each (its `bytes_sent`), and the time, each the median
    /// of the rounds' own ratios (see ``TransferRounds``). The retry policy waits no time between
    /// attempts: the rows measure what resuming costs, not the backoff, which a user sets.
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
            let seconds = try TransferSample.measuring { _ = try value(of: client.download(request, to: destination)) }.seconds
            let bytes = try bytesSent() - before
            let length = (try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber)?.intValue
            guard length == size else { throw BenchFailure("a resumed download holds \(length ?? 0) bytes of \(size)") }
            try FileManager.default.removeItem(at: destination)
            return (seconds, bytes)
        }
        // Once first, unmeasured: the first download of a run pays for what later ones find ready
        // (its file's pages, the server's first read of the photo), which would weigh on one side.
        _ = try download(Request<Data>(.get, "photos/1"), to: "whole.jpg")
        var whole: [(seconds: Double, bytes: Int)] = []
        var resumed: [(seconds: Double, bytes: Int)] = []
        for round in 0..<rounds {
            // A fault of its own each round, so that `times=1` cuts each round's first attempt.
            let cut = Request<Data>(.get, "photos/1", headers: ["X-Demo-Fault": "drop-after=\(size / 2);times=1;round=\(round)"])
            let wholeFirst = round.isMultiple(of: 2)
            if wholeFirst { whole.append(try download(Request<Data>(.get, "photos/1"), to: "whole.jpg")) }
            resumed.append(try download(cut, to: "resumed.jpg"))
            if !wholeFirst { whole.append(try download(Request<Data>(.get, "photos/1"), to: "whole.jpg")) }
        }
        let mib = Double(1 << 20)
        return [
            BenchResult(name: "download.resumed_bytes", label: "\(size >> 20) MiB download cut at half and resumed: bytes on the wire",
                        value: Measure.median(resumed.map { Double($0.bytes) / mib }), unit: "MiB",
                        baseline: Measure.median(whole.map { Double($0.bytes) / mib }), baselineLabel: "uninterrupted", target: .atMost(1.05),
                        pairedRatio: Measure.median(zip(resumed, whole).map { Double($0.bytes) / Double($1.bytes) })),
            BenchResult(name: "download.resumed", label: "  time, cut and resumed",
                        value: Measure.median(resumed.map { $0.seconds * 1000 }), unit: "ms",
                        baseline: Measure.median(whole.map { $0.seconds * 1000 }), baselineLabel: "uninterrupted", target: .atMost(1.2),
                        pairedRatio: Measure.median(zip(resumed, whole).map { $0.seconds / $1.seconds })),
        ]
    }
}
