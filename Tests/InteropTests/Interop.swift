@testable import BatonPromise
@testable import BatonClient
import BatonSupport
import BatonOpenSSL
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// Where `.ci/interop` started the servers, from the variables it exports. A test that needs one
/// it does not find skips, so that `swift test` passes, saying so, where nothing was started.
enum Interop {
    /// nginx over http: `BATON_INTEROP_NGINX`.
    static func nginx() throws -> URL { try url("BATON_INTEROP_NGINX") }
    /// nginx over https, as `https://localhost:PORT`: `BATON_INTEROP_NGINX_TLS`.
    static func nginxTLS() throws -> URL { try url("BATON_INTEROP_NGINX_TLS") }
    /// The private certificate authority that issued nginx's certificate, a PEM file.
    static func nginxCA() throws -> URL { URL(fileURLWithPath: try value("BATON_INTEROP_NGINX_CA")) }
    /// The pin (base64 SHA-256 of the public key) of nginx's own certificate.
    static func nginxPin() throws -> String { try value("BATON_INTEROP_NGINX_TLS_PIN") }
    /// The pin of the certificate authority's key.
    static func nginxCAPin() throws -> String { try value("BATON_INTEROP_NGINX_CA_PIN") }
    /// The folder nginx serves.
    static func nginxRoot() throws -> URL { URL(fileURLWithPath: try value("BATON_INTEROP_NGINX_ROOT")) }
    /// nginx's access log, one JSON object a request.
    static func nginxLog() throws -> NginxAccessLog { NginxAccessLog(file: URL(fileURLWithPath: try value("BATON_INTEROP_NGINX_LOG"))) }
    /// The relay in front of nginx that cuts a download once (`.ci/interop-servers/cutting_relay.py`).
    static func relay() throws -> URL { try url("BATON_INTEROP_RELAY") }
    /// The h11 server (`.ci/interop-servers/h11_server.py`).
    static func h11() throws -> URL { try url("BATON_INTEROP_PY") }
    /// tinyproxy, open: `BATON_INTEROP_PROXY`.
    static func proxy() throws -> String { try url("BATON_INTEROP_PROXY").absoluteString }
    /// tinyproxy asking for Basic credentials: `BATON_INTEROP_PROXY_AUTH`.
    static func authenticatingProxy() throws -> String { try url("BATON_INTEROP_PROXY_AUTH").absoluteString }
    /// The credentials it takes, as `user:password`.
    static func proxyCredentials() throws -> String { try value("BATON_INTEROP_PROXY_CREDENTIALS") }
    /// pproxy's SOCKS5, as `socks5h://127.0.0.1:PORT`: `BATON_INTEROP_SOCKS`.
    static func socks() throws -> String { try value("BATON_INTEROP_SOCKS") }

    /// A token for one test's requests (their `t` query item), by which the servers' records of
    /// them are found.
    static func token() -> String { UUID().uuidString.lowercased() }

    private static func value(_ name: String) throws -> String {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
            throw XCTSkip("\(name) is set by .ci/interop; skipped")
        }
        return value
    }

    private static func url(_ name: String) throws -> URL {
        let text = try value(name)
        guard let url = URL(string: text), let host = url.host, host == "127.0.0.1" || host == "localhost" else {
            throw XCTSkip("\(name) is not a loopback URL (\(text)); skipped")
        }
        return url
    }

    /// The lower-case hex SHA-256 of `data`.
    static func sha256(_ data: Data) -> String { SHA256.hexDigest(of: data) }
}

extension URL {
    /// This URL with `path` appended and the query items `t=token` and `extra`.
    func interop(_ path: String, token: String, _ extra: [String: String] = [:]) -> URL {
        appending(path: path).appending(queryItems: [URLQueryItem(name: "t", value: token)]
            + extra.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) })
    }
}

/// One line of nginx's access log (the `interop` format of `.ci/interop`); `-` and empty
/// variables are empty strings.
struct NginxLogEntry: Decodable, Sendable, CustomStringConvertible {
    var connection: Int
    var connectionRequests: Int
    var method: String
    var uri: String
    var status: Int
    var bodyBytesSent: Int
    var range: String
    var ifRange: String
    var ifNoneMatch: String
    var gzipRatio: String
    var https: String

    var description: String {
        "#\(connection).\(connectionRequests) \(method) \(uri) \(status) \(bodyBytesSent) bytes"
            + (range.isEmpty ? "" : " range \(range)") + (ifRange.isEmpty ? "" : " if-range \(ifRange)")
            + (ifNoneMatch.isEmpty ? "" : " if-none-match \(ifNoneMatch)") + (gzipRatio.isEmpty ? "" : " gzip \(gzipRatio)")
    }
}

/// nginx's access log, read by the tests: what nginx itself says it received and sent.
struct NginxAccessLog {
    let file: URL

    /// The entries of the requests whose target carries `t=token`, in the order nginx logged them.
    func entries(for token: String) throws -> [NginxLogEntry] {
        let text = try String(contentsOf: file, encoding: .utf8)
        return try text.split(separator: "\n").filter { $0.contains("t=\(token)") }.map {
            try JSONDecoder().decode(NginxLogEntry.self, from: Data($0.utf8))
        }
    }

    /// The entries of `token`, once there are `count` of them. nginx logs a request after its
    /// response has gone, so a client can have the response before the line is written: this
    /// reads the log again every 10 ms until the lines are there, for at most 10 s (a hang
    /// guard: they come within milliseconds).
    func entries(for token: String, count: Int, file source: StaticString = #filePath, line: UInt = #line) async throws -> [NginxLogEntry] {
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            let entries = try entries(for: token)
            if entries.count >= count { return entries }
            if ContinuousClock.now > deadline {
                XCTFail("nginx logged \(entries.count) requests of \(token), not \(count): \(entries)", file: source, line: line)
                return entries
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// What a transport told of its connections, through ``TransferOptions/connectionEvents``.
final class ConnectionEvents: Sendable {
    private let recorder = Recorder<ConnectionEvent>()

    /// Options that tell this recorder, with `maximumResponseSize`.
    func options(maximumResponseSize: Int = TransferOptions.defaultMaximumResponseSize) -> TransferOptions {
        var options = TransferOptions(maximumResponseSize: maximumResponseSize)
        options.connectionEvents = { [recorder] event in recorder.append(event) }
        return options
    }

    /// Records `event`.
    func record(_ event: ConnectionEvent) { recorder.append(event) }

    var all: [ConnectionEvent] { recorder.events }
    var kinds: [ConnectionEvent.Kind] { all.map(\.kind) }
    func count(of kind: ConnectionEvent.Kind) -> Int { all.filter { $0.kind == kind }.count }

    /// The most connections open at once.
    var mostOpenAtOnce: Int {
        var open = 0
        var most = 0
        for event in all {
            if event.kind == .opened { open += 1 } else if event.kind == .closed { open -= 1 }
            most = max(most, open)
        }
        return most
    }
}

/// A monitor that keeps a client's events, and hands its connection events to `connections`.
final class CallEvents: ClientMonitor {
    private let recorder = Recorder<ClientEvent>()
    let connections: ConnectionEvents

    init(connections: ConnectionEvents = ConnectionEvents()) {
        self.connections = connections
    }

    func receive(_ event: ClientEvent) {
        recorder.append(event)
        if let connection = event.connection { connections.record(connection) }
    }

    func count(of kind: ClientEvent.Kind) -> Int { recorder.events.filter { $0.kind == kind }.count }
}

extension HTTP1Transport {
    /// Sends `method` to `url` with `headers` and `body`, telling `events` of its connections.
    func send(
        _ url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil,
        events: ConnectionEvents = ConnectionEvents()
    ) async throws -> HTTPResponse {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return try await send(request, body: body.map { .data($0) }, options: events.options()).value
    }
}

/// The `APIError` `promise` rejects with; a failure of the test when it fulfils or rejects with
/// something else.
func apiError<T>(_ promise: Promise<T>, file: StaticString = #filePath, line: UInt = #line) async -> APIError? {
    do {
        _ = try await promise.value
        XCTFail("the call succeeded, but an APIError was expected", file: file, line: line)
        return nil
    } catch let error as APIError {
        return error
    } catch {
        XCTFail("expected an APIError, got \(type(of: error)): \(error)", file: file, line: line)
        return nil
    }
}

#if os(Linux)
/// This machine's IPv4 TCP sockets as the kernel lists them (`/proc/net/tcp`): to see, from the
/// client's side, that a server closed a connection (the socket turns `CLOSE_WAIT`) without
/// waiting out the server's timeout on the clock.
enum LoopbackSockets {
    /// The state of each socket connected to 127.0.0.1:`port`, by its local port: `01`
    /// established, `08` close-wait (the server has closed its side).
    static func states(connectedTo port: Int) throws -> [Int: String] {
        let text = try kernelList()
        var states: [Int: String] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ")
            guard fields.count > 3 else { continue }
            let local = fields[1].split(separator: ":")
            let remote = fields[2].split(separator: ":")
            guard local.count == 2, remote.count == 2, remote[0] == "0100007F", Int(remote[1], radix: 16) == port,
                  let localPort = Int(local[1], radix: 16)
            else { continue }
            states[localPort] = String(fields[3])
        }
        return states
    }

    /// The whole of `/proc/net/tcp`, read until its end: the kernel hands it out a page at a
    /// time, and a single read (as `String(contentsOfFile:)` makes of a file whose size is 0)
    /// sees only the first sockets.
    private static func kernelList() throws -> String {
        let descriptor = open("/proc/net/tcp", O_RDONLY)
        guard descriptor >= 0 else { throw CocoaError(.fileReadNoPermission) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer.prefix(count)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The local ports of the established connections to 127.0.0.1:`port`.
    static func established(to port: Int) throws -> Set<Int> {
        Set(try states(connectedTo: port).filter { $0.value == establishedState }.keys)
    }

    static let establishedState = "01"
    static let closeWaitState = "08"

    /// Waits until the socket of local port `local`, connected to `port`, is in `state`, reading
    /// the kernel's list every 20 ms for at most `limit` (a hang guard).
    static func waitUntil(local: Int, connectedTo port: Int, is state: String, within limit: Duration = .seconds(15)) async throws -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if try states(connectedTo: port)[local] == state { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }
}
#endif

/// The `URLError` `send` failed with; a failure of the test when it succeeds or throws another
/// error.
func refusal(of send: () async throws -> HTTPResponse, file: StaticString = #filePath, line: UInt = #line) async -> URLError? {
    do {
        let response = try await send()
        XCTFail("the request succeeded (\(response.statusCode)), but it should have been refused", file: file, line: line)
        return nil
    } catch let error as URLError {
        return error
    } catch {
        XCTFail("expected a URLError, got \(type(of: error)): \(error)", file: file, line: line)
        return nil
    }
}
