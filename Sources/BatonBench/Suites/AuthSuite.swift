import Baton
import BatonSupport
import DemoServer
import Dispatch
import Foundation

/// `baton-bench auth`: the wall time of 1,000 concurrent `GET /orders/1` that all meet an expired
/// access token (one refresh, then every request replayed or sent with the new token), against
/// the same 1,000 sent with a valid token, in the same run. The ratio is storm / valid, so below
/// 1.3 means the storm costs less than 30% more than no storm at all.
///
/// Each round logs in afresh (not timed), so both sides start from an unused token and the
/// authenticator's refresh limit never comes into play; the two sides alternate which goes first,
/// and the row is the median of the rounds' paired ratios.
enum AuthSuite {
    struct Order: Decodable, Sendable {
        var id: Int
    }

    static func run(quick: Bool) throws -> [BenchResult] {
        let server = try DemoServer.start(configuration: DemoServer.Configuration(tokenLifetime: 3600))
        defer { server.stop() }
        let requests = 1_000
        let rounds = quick ? 2 : 11
        // Warm connections and caches on both paths first.
        _ = try measure(server, requests: 200, expired: false)
        _ = try measure(server, requests: 200, expired: true)
        var storm: [Double] = [], valid: [Double] = []
        for round in 0..<rounds {
            if round.isMultiple(of: 2) {
                valid.append(try measure(server, requests: requests, expired: false))
                storm.append(try measure(server, requests: requests, expired: true))
            } else {
                storm.append(try measure(server, requests: requests, expired: true))
                valid.append(try measure(server, requests: requests, expired: false))
            }
        }
        return [BenchResult(
            name: "auth.storm",
            label: "1,000 requests meeting an expired token",
            value: Measure.median(storm) * 1000, unit: "ms", baseline: Measure.median(valid) * 1000, baselineLabel: "valid token",
            target: .atMost(1.3),
            pairedRatio: Measure.median(zip(storm, valid).map { $0 / $1 })
        )]
    }

    /// Seconds from sending `requests` calls at once to the last one's response, with a freshly
    /// logged-in authenticator whose token `expired` or not.
    private static func measure(_ server: DemoServer, requests: Int, expired: Bool) throws -> Double {
        let authenticator = try Authenticator(tokenURL: server.baseURL.appending(path: "tokens")) {
            $0.fields = TokenResponseFields(accessToken: "token")
        }
        _ = try value(of: authenticator.logIn(username: "demo", password: "demo"))
        let client = try Client(baseURL: server.baseURL) { $0.interceptors = [authenticator] }
        if expired { server.expireAccessTokens() }
        let remaining = Locked(requests)
        let finished = DispatchSemaphore(value: 0)
        let start = ContinuousClock.now
        for _ in 0..<requests {
            client.send(Request<Order>(.get, "orders/1")).then { result in
                if case .failure(let error) = result { fail("\(error)") }
                if remaining.withLock({ $0 -= 1; return $0 }) == 0 { finished.signal() }
            }
        }
        finished.wait()
        return (ContinuousClock.now - start).timeInterval
    }

    private static func fail(_ reason: String) {
        FileHandle.standardError.write(Data("baton-bench auth: a request failed (\(reason))\n".utf8))
        exit(1)
    }
}
