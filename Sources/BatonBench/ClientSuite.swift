import Baton
import BatonLocking
import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `baton-bench client`: requests per second of `GET /orders/1` decoded into an `Order`, through
/// Baton and through URLSession plus JSONDecoder by hand, against one DemoServer over loopback,
/// at concurrency 1 and 32. The ratio is Baton / raw, so above 1 is faster.
///
/// Both sides do what each call of a real client does, each the cheapest way it can: build the
/// request (Baton from an endpoint, the raw side with one header assignment), send it, and hand
/// the decoded value to one callback (Baton's `then`, URLSession's completion handler). Each
/// side keeps one session and one decoder for the whole run.
enum ClientSuite {
    struct Order: Decodable, Sendable {
        var id: Int
        var name: String
        var ordersum: Int
        var subtotal: Int
        var bikou: String
    }

    static func run(quick: Bool) throws -> [BenchResult] {
        let server = try DemoServer.start(configuration: DemoServer.Configuration(tokenLifetime: 3600))
        defer { server.stop() }
        let token = try login(baseURL: server.baseURL)
        let baton = try batonSide(server.baseURL, token: token)
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let raw = rawSide(server.baseURL, token: token, session: session)
        let rounds = quick ? 2 : 21
        var results: [BenchResult] = []
        for concurrency in [1, 32] {
            // Rounds of about half a second each: long enough that the ramp-up of 32 workers is
            // a small part of a round, short enough to give a median many samples.
            let requests = quick ? 300 : (concurrency == 1 ? 400 : 1_000)
            // Warm both paths (connections, caches) before measuring.
            _ = baton(64, concurrency)
            _ = raw(64, concurrency)
            // Short rounds, each one run of each side back to back (first one side, then the
            // other), and the median of the rounds' ratios: on a shared machine the speed drifts
            // by a third within seconds, which a pair run back to back mostly shares, and a
            // median is not decided by the odd round that drift favoured either way, as a
            // best-of is. The rates shown are each side's median.
            var batonRates: [Double] = [], rawRates: [Double] = []
            for round in 0..<rounds {
                if round.isMultiple(of: 2) {
                    rawRates.append(raw(requests, concurrency))
                    batonRates.append(baton(requests, concurrency))
                } else {
                    batonRates.append(baton(requests, concurrency))
                    rawRates.append(raw(requests, concurrency))
                }
            }
            results.append(BenchResult(
                name: "client.orders.c\(concurrency).vs_urlsession",
                label: "GET /orders/1, \(concurrency) at once",
                value: Measure.median(batonRates), unit: "req/s", baseline: Measure.median(rawRates), baselineLabel: "URLSession",
                target: .atLeast(0.9),
                pairedRatio: Measure.median(zip(batonRates, rawRates).map { $0 / $1 })
            ))
        }
        return results
    }

    /// Measures `requests` calls at `concurrency` through Baton; returns calls per second.
    private static func batonSide(_ baseURL: URL, token: String) throws -> (Int, Int) -> Double {
        let client = try Client(baseURL: baseURL) { configuration in
            configuration.headers["Authorization"] = "Bearer \(token)"
        }
        return { requests, concurrency in
            LoadDriver.requestsPerSecond(requests: requests, concurrency: concurrency) { done in
                client.send(Request<Order>(.get, "orders/1")).then { result in
                    if case .failure(let error) = result { fail("Baton: \(error)") }
                    done()
                }
            }
        }
    }

    /// Measures `requests` calls at `concurrency` through URLSession and JSONDecoder by hand.
    private static func rawSide(_ baseURL: URL, token: String, session: URLSession) -> (Int, Int) -> Double {
        let decoder = JSONDecoder()
        let base = baseURL.absoluteString
        // The same request Baton sends: its User-Agent and Accept headers too.
        let headers = [
            "Authorization": "Bearer \(token)",
            "User-Agent": Client.defaultUserAgent,
            "Accept": "application/json, application/*+json",
        ]
        return { requests, concurrency in
            LoadDriver.requestsPerSecond(requests: requests, concurrency: concurrency) { done in
                var request = URLRequest(url: URL(string: "\(base)/orders/1")!)
                request.allHTTPHeaderFields = headers
                session.dataTask(with: request) { data, response, _ in
                    if let data, (response as? HTTPURLResponse)?.statusCode == 200,
                       let order = try? decoder.decode(Order.self, from: data) {
                        blackHole(order)
                    } else {
                        fail("URLSession: no Order decoded")
                    }
                    done()
                }.resume()
            }
        }
    }

    /// A failed request would make a rate meaningless: stop the benchmark and say why.
    private static func fail(_ reason: String) {
        FileHandle.standardError.write(Data("baton-bench client: a request failed (\(reason))\n".utf8))
        exit(1)
    }

    private static func login(baseURL: URL) throws -> String {
        struct Token: Decodable, Sendable { var token: String }
        let client = try Client(baseURL: baseURL)
        let login = Request<Token>(.post, "tokens", body: .form([("grant_type", "password"), ("username", "demo"), ("password", "demo")]))
        let semaphore = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<Token, any Error>?>(nil)
        client.send(login).then { result in outcome.withLock { $0 = result }; semaphore.signal() }
        semaphore.wait()
        return try outcome.withLock { $0! }.get().token
    }
}
