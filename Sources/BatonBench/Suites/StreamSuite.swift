import Baton
import BatonSupport
import DemoServer
import Dispatch
import Foundation

/// `baton-bench stream`: 100,000 small server-sent events from DemoServer's `/_demo/events`,
/// through Baton (`client.events`, each event cut by the HTML standard's rules and handed to a
/// handler as a ``ServerSentEvent``) against the same bytes read raw from the same transport
/// (``HTTP1Transport`` fetching the whole body, nothing cut): `stream.sse` is the ratio of their
/// rates, the median of rounds run back to back. `stream.rss_growth_mib` is how far the peak
/// resident memory rose while Baton's side ran (Linux's `VmHWM`).
enum StreamSuite {
    static func run(quick: Bool) throws -> [BenchResult] {
        let count = quick ? 10_000 : 100_000
        let server = try DemoServer.start(configuration: DemoServer.Configuration(tokenLifetime: 3600))
        defer { server.stop() }
        let transport = HTTP1Transport()
        let client = try Client(baseURL: server.baseURL, transport: transport)
        let path = "_demo/events"
        let query = [URLQueryItem(name: "count", value: String(count)), URLQueryItem(name: "size", value: "16")]
        let request = Request<ServerSentEvent>(.get, "_demo/events", query: query)

        func throughBaton() throws -> Double {
            let seen = Tally()
            let start = ContinuousClock.now
            let end = try value(of: client.events(request) { _ in seen.count += 1 })
            guard end.elements == count, seen.count == count else { throw StreamBenchFailure("Baton handed on \(seen.count) of \(count) events") }
            return Double(count) / (ContinuousClock.now - start).timeInterval
        }
        func raw() throws -> Double {
            var url = URLComponents(url: server.baseURL.appending(path: path), resolvingAgainstBaseURL: false)!
            url.queryItems = query
            var options = TransferOptions()
            options.maximumResponseSize = 1 << 30
            let start = ContinuousClock.now
            let response = try value(of: transport.send(URLRequest(url: url.url!), body: nil, options: options))
            guard response.statusCode == 200, !response.body.isEmpty else { throw StreamBenchFailure("the raw read got status \(response.statusCode)") }
            return Double(count) / (ContinuousClock.now - start).timeInterval
        }
        _ = try throughBaton()
        _ = try raw()
        var ratios: [Double] = [], batonRates: [Double] = [], rawRates: [Double] = []
        for round in 0..<(quick ? 2 : 9) {
            // Turn about, so that neither side always runs on a machine the other warmed.
            let baton: Double, plain: Double
            if round.isMultiple(of: 2) {
                baton = try throughBaton()
                plain = try raw()
            } else {
                plain = try raw()
                baton = try throughBaton()
            }
            batonRates.append(baton)
            rawRates.append(plain)
            ratios.append(baton / plain)
        }
        Measure.resetPeakResident()
        let before = Measure.peakResidentBytes() ?? 0
        _ = try throughBaton()
        let growth = Double(max(0, (Measure.peakResidentBytes() ?? 0) - before)) / Double(1 << 20)
        return [
            BenchResult(name: "stream.sse", label: "\(count) server-sent events handed on", value: Measure.median(batonRates), unit: "events/s",
                        baseline: Measure.median(rawRates), baselineLabel: "raw body", target: .atLeast(0.7), pairedRatio: Measure.median(ratios)),
            BenchResult(name: "stream.rss_growth_mib", label: "  peak memory growth while streaming", value: growth, unit: "MiB",
                        baseline: 0, baselineLabel: "", target: .valueAtMost(16, unit: "MiB")),
        ]
    }

    /// What the handler counts, as a user's handler would keep its state: without a lock, since
    /// a stream's handlers run one at a time, each handing over to the next through the stream's
    /// own lock.
    // Not locked: see above; read once the stream's promise has settled.
    private final class Tally: @unchecked Sendable {
        var count = 0
    }

    private struct StreamBenchFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
