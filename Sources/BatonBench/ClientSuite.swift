import Baton
import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `baton-bench client`: requests per second of `GET /orders/1` decoded into an `Order`, through
/// Baton and through URLSession plus JSONDecoder by hand, against one DemoServer over loopback,
/// at concurrency 1 and 32. The ratio is Baton / raw, so above 1 is faster.
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
        let requests = quick ? 300 : 2_000
        var results: [BenchResult] = []
        for concurrency in [1, 32] {
            // Warm both paths (connections, caches) before measuring.
            _ = measureBaton(server.baseURL, token: token, requests: 64, concurrency: concurrency)
            _ = measureRaw(server.baseURL, token: token, requests: 64, concurrency: concurrency)
            // Interleaved, best of each: the two sides see the same machine state.
            var raw = 0.0, baton = 0.0
            for _ in 0..<(quick ? 1 : 5) {
                raw = max(raw, measureRaw(server.baseURL, token: token, requests: requests, concurrency: concurrency))
                baton = max(baton, measureBaton(server.baseURL, token: token, requests: requests, concurrency: concurrency))
            }
            results.append(BenchResult(
                name: "client.orders.c\(concurrency).vs_urlsession",
                label: "GET /orders/1, \(concurrency) at once",
                value: baton, unit: "req/s", baseline: raw, baselineLabel: "URLSession",
                target: .atLeast(0.9)
            ))
        }
        return results
    }

    private static func measureBaton(_ baseURL: URL, token: String, requests: Int, concurrency: Int) -> Double {
        let client = Client(baseURL: baseURL) { configuration in
            configuration.headers["Authorization"] = "Bearer \(token)"
        }
        let endpoint = Request<Order>(.get, "orders/1")
        return LoadDriver.requestsPerSecond(requests: requests, concurrency: concurrency) { done in
            client.send(endpoint)
                .failure { error, _ in fail("Baton: \(error)") }
                .always { done() }
        }
    }

    private static func measureRaw(_ baseURL: URL, token: String, requests: Int, concurrency: Int) -> Double {
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        // The same request Baton sends: its User-Agent and Accept headers too.
        var request = URLRequest(url: baseURL.appendingPathComponent("orders/1"))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue(Client.defaultUserAgent, forHTTPHeaderField: "User-Agent")
        request.setValue("application/json, application/*+json", forHTTPHeaderField: "Accept")
        let prepared = request
        return LoadDriver.requestsPerSecond(requests: requests, concurrency: concurrency) { done in
            session.dataTask(with: prepared) { data, response, _ in
                if let data, (response as? HTTPURLResponse)?.statusCode == 200,
                   let order = try? JSONDecoder().decode(Order.self, from: data) {
                    blackHole(order)
                } else {
                    fail("URLSession: no Order decoded")
                }
                done()
            }.resume()
        }
    }

    /// A failed request would make a rate meaningless: stop the benchmark and say why.
    private static func fail(_ reason: String) {
        FileHandle.standardError.write(Data("baton-bench client: a request failed (\(reason))\n".utf8))
        exit(1)
    }

    private static func login(baseURL: URL) throws -> String {
        struct Token: Decodable, Sendable { var token: String }
        let client = Client(baseURL: baseURL)
        let login = Request<Token>(.post, "tokens", body: .form([("grant_type", "password"), ("username", "demo"), ("password", "demo")]))
        let semaphore = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<Token, any Error>?>(nil)
        client.send(login).then { result in outcome.withLock { $0 = result }; semaphore.signal() }
        semaphore.wait()
        return try outcome.withLock { $0! }.get().token
    }
}

/// A value behind a lock, for results handed back from callbacks.
// `lock` guards `value`.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
