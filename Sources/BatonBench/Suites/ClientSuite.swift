import Baton
import BatonSupport
import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `baton-bench client`: requests per second of `GET /orders/1` decoded into an `Order`, against
/// one DemoServer over loopback, at concurrency 1 and 32, four ways in each round:
/// - Baton over its own transport (``HTTP1Transport``, the default for `http` on Linux);
/// - Baton over ``URLSessionTransport``;
/// - URLSession plus JSONDecoder by hand (the baseline of the `client.orders` rows: Baton's own
///   cost over the same transport, and of the `client.wire` rows: what a Swift user on Linux
///   gets today);
/// - the floor: a keep-alive GET loop on blocking sockets, nothing decoded (``WireFloor``).
///
/// With `https`, two more sides run against a second DemoServer serving TLS, both verifying its
/// certificate (the test root is a system root for the run: see ``TestRootTrust``): Baton over
/// its transport, and URLSession plus JSONDecoder by hand (the `client.tls` rows).
///
/// When nginx is installed, three more sides run against it serving the same order as a static
/// file (see ``NginxServer``): Baton over its transport, URLSession plus JSONDecoder by hand, and
/// the floor (the `client.nginx` rows). nginx's work is a small part of a round trip, so these
/// rows say what the wire allows, and, nginx being another process, the process's CPU time per
/// request is the client's alone: the `client.nginx.c1.cpu_us` row. Without nginx, the rows are
/// left out with a line saying why.
///
/// Every side does what each call of a real client does, each the cheapest way it can, and keeps
/// one session (or pool, or socket per worker) and one decoder for the whole run.
enum ClientSuite {
    struct Order: Decodable, Sendable {
        var id: Int
        var name: String
        var ordersum: Int
        var subtotal: Int
        var bikou: String
    }

    static func run(quick: Bool, https: Bool) throws -> [BenchResult] {
        let server = try DemoServer.start(configuration: DemoServer.Configuration(tokenLifetime: 3600))
        defer { server.stop() }
        let secureServer = https ? try DemoServer.start(configuration: DemoServer.Configuration(tokenLifetime: 3600, tls: .loopback)) : nil
        defer { secureServer?.stop() }
        let token = try login(baseURL: server.baseURL)
        let overHTTP1 = try batonSide(server.baseURL, token: token, transport: HTTP1Transport())
        let overURLSession = try batonSide(server.baseURL, token: token, transport: URLSessionTransport())
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let raw = rawSide(server.baseURL, token: token, session: session)
        let floorHeaders = ["Authorization": "Bearer \(token)", "User-Agent": Client.defaultUserAgent, "Accept": "application/json"]
        let floor: (Int, Int) -> Double = { requests, concurrency in
            WireFloor.requestsPerSecond(port: server.port, path: "/orders/1", headers: floorHeaders, requests: requests, concurrency: concurrency)
        }
        // A session of its own: libcurl's connection cache is the session's, and a busy https
        // side must not evict the http side's connections.
        let secureSession = URLSession(configuration: .ephemeral)
        defer { secureSession.finishTasksAndInvalidate() }
        var secureSides: [(name: String, measure: (Int, Int) -> Double)] = []
        if let secureServer {
            let secureToken = try login(baseURL: secureServer.baseURL)
            secureSides = [
                ("https1", try batonSide(secureServer.baseURL, token: secureToken, transport: HTTP1Transport())),
                ("https_raw", rawSide(secureServer.baseURL, token: secureToken, session: secureSession)),
            ]
        }
        var nginxSides: [(name: String, measure: (Int, Int) -> Double)] = []
        let nginx: NginxServer?
        if let unavailable = NginxServer.unavailable {
            nginx = nil
            FileHandle.standardError.write(Data("baton-bench client: the client.nginx rows are left out: \(unavailable)\n".utf8))
        } else {
            let started = try NginxServer(body: Data(#"{"id":1,"name":"山田","ordersum":2,"subtotal":1200,"bikou":"急ぎ"}"#.utf8))
            nginx = started
            let nginxURL = URL(string: "http://127.0.0.1:\(started.port)/")!
            nginxSides = [
                ("nginx_http1", try batonSide(nginxURL, token: token, transport: HTTP1Transport())),
                ("nginx_raw", rawSide(nginxURL, token: token, session: session)),
                ("nginx_floor", { requests, concurrency in
                    WireFloor.requestsPerSecond(port: started.port, path: "/orders/1", headers: floorHeaders, requests: requests, concurrency: concurrency)
                }),
            ]
        }
        defer { nginx?.stop() }
        let rounds = quick ? 2 : 21
        var results: [BenchResult] = []
        for concurrency in [1, 32] {
            // Rounds of a fraction of a second each side: long enough that the ramp-up of 32
            // workers is a small part of a round, short enough to give a median many samples.
            // The fast sides get more requests, so that their rounds last about as long.
            let slow = quick ? 300 : (concurrency == 1 ? 400 : 1_000)
            let fast = slow * 8
            typealias Side = (name: String, requests: Int, measure: (Int, Int) -> Double)
            let plain: [Side] = [
                ("http1", fast, overHTTP1), ("urlsessionTransport", slow, overURLSession), ("raw", slow, raw), ("floor", fast, floor),
            ]
            // The https pair runs in rounds of its own, after the others: the handshakes URLSession
            // makes at 32 at once would otherwise spill CPU into the next side's round.
            let secure: [Side] = secureSides.map { ($0.name, $0.name == "https_raw" ? slow : fast, $0.measure) }
            let againstNginx: [Side] = nginxSides.map { ($0.name, $0.name == "nginx_raw" ? slow : fast, $0.measure) }
            var rates = [String: [Double]]()
            /// Microseconds of the process's CPU per request, by side.
            var cpu = [String: [Double]]()
            for sides in [plain, secure, againstNginx] where !sides.isEmpty {
                // Warm every path (connections, caches) before measuring.
                for side in sides { _ = side.measure(64, concurrency) }
                // Each round runs every side back to back, in an order that turns round by round,
                // and each row is the median of its rounds' ratios: on a shared machine the speed
                // drifts by a third within seconds, which sides run back to back mostly share, and a
                // median is not decided by the odd round that drift favoured. The rates shown are
                // each side's median.
                for round in 0..<rounds {
                    for offset in 0..<sides.count {
                        let side = sides[(round + offset) % sides.count]
                        let cpuBefore = Measure.processCPUSeconds()
                        rates[side.name, default: []].append(side.measure(side.requests, concurrency))
                        cpu[side.name, default: []].append((Measure.processCPUSeconds() - cpuBefore) * 1e6 / Double(side.requests))
                    }
                }
            }
            func row(_ name: String, _ label: String, _ side: String, over baseline: String, _ baselineLabel: String, _ target: Target?) -> BenchResult {
                let values = rates[side] ?? [], baselines = rates[baseline] ?? []
                return BenchResult(
                    name: name, label: label, value: Measure.median(values), unit: "req/s",
                    baseline: Measure.median(baselines), baselineLabel: baselineLabel, target: target,
                    pairedRatio: Measure.median(zip(values, baselines).map { $0 / $1 })
                )
            }
            results.append(row("client.orders.c\(concurrency).vs_urlsession", "GET /orders/1, \(concurrency) at once, over URLSessionTransport",
                               "urlsessionTransport", over: "raw", "URLSession", .atLeast(0.9)))
            results.append(row("client.wire.c\(concurrency).vs_urlsession", "GET /orders/1, \(concurrency) at once, over HTTP1Transport",
                               "http1", over: "raw", "URLSession", .atLeast(4)))
            if !secureSides.isEmpty {
                results.append(row("client.tls.c\(concurrency).vs_urlsession", "GET /orders/1, \(concurrency) at once, https over HTTP1Transport",
                                   "https1", over: "https_raw", "URLSession https", .atLeast(3)))
            }
            if concurrency == 1 {
                results.append(row("client.wire.c1.vs_floor", "GET /orders/1, 1 at once, over HTTP1Transport",
                                   "http1", over: "floor", "socket floor", .atLeast(0.5)))
            }
            if !nginxSides.isEmpty {
                results.append(row("client.nginx.c\(concurrency).vs_floor", "nginx: GET /orders/1, \(concurrency) at once, over HTTP1Transport",
                                   "nginx_http1", over: "nginx_floor", "socket floor", concurrency == 1 ? .atLeast(0.5) : nil))
                results.append(row("client.nginx.c\(concurrency).vs_urlsession", "nginx: GET /orders/1, \(concurrency) at once, over HTTP1Transport",
                                   "nginx_http1", over: "nginx_raw", "URLSession", nil))
                if concurrency == 1 {
                    results.append(BenchResult(
                        name: "client.nginx.c1.cpu_us", label: "nginx: CPU per GET /orders/1 and decode, 1 at once",
                        value: Measure.median(cpu["nginx_http1"] ?? []), unit: "µs",
                        baseline: Measure.median(cpu["nginx_floor"] ?? []), baselineLabel: "socket floor", target: .valueAtMost(60, unit: "µs")
                    ))
                }
            }
        }
        return results
    }

    /// Measures `requests` calls at `concurrency` through Baton over `transport`; returns calls
    /// per second.
    private static func batonSide(_ baseURL: URL, token: String, transport: any Transport) throws -> (Int, Int) -> Double {
        let client = try Client(baseURL: baseURL, transport: transport) { configuration in
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
