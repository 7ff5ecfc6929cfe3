import XCTest
@testable import DemoServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A test case with a fresh `DemoServer` per test and a URLSession to talk to it: the client side is
/// the real one that Baton uses (libcurl under FoundationNetworking on Linux).
class ServerTestCase: XCTestCase {
    /// What a request got back.
    struct Reply {
        var status: Int
        /// Header names lower-cased.
        var headers: [String: String]
        var body: Data

        var json: Any? { try? JSONSerialization.jsonObject(with: body) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
        var message: String? { object["message"] as? String }
        var text: String { String(decoding: body, as: UTF8.self) }
    }

    private(set) var server: DemoServer!
    private(set) var session: URLSession!

    /// Override to change the server's settings. Connections idle for a minute are closed: long
    /// enough that no pause of a busy machine between a test's requests closes one under it.
    /// Test cases whose subject is the idle timeout set a short one of their own.
    func makeConfiguration() -> DemoServer.Configuration {
        var configuration = DemoServer.Configuration()
        configuration.idleTimeout = 60
        return configuration
    }

    /// The session delegate, if a test case needs one (to refuse redirects, say).
    func makeSessionDelegate() -> URLSessionDelegate? { nil }

    override func setUp() async throws {
        try await super.setUp()
        server = try DemoServer(configuration: makeConfiguration())
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpMaximumConnectionsPerHost = 256
        configuration.timeoutIntervalForRequest = 20
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration, delegate: makeSessionDelegate(), delegateQueue: nil)
    }

    override func tearDown() {
        session?.invalidateAndCancel()
        server?.stop()
        super.tearDown()
    }

    func url(_ path: String) -> URL {
        URL(string: server.baseURL.absoluteString + path)!
    }

    /// Sends one request through URLSession and returns what came back.
    func send(
        _ method: String = "GET", _ path: String, headers: [String: String] = [:], body: Data? = nil,
        token: String? = nil
    ) async throws -> Reply {
        var request = URLRequest(url: url(path))
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        let (data, response): (Data, URLResponse)
        if let body {
            (data, response) = try await session.upload(for: request, from: body)
        } else {
            (data, response) = try await session.data(for: request)
        }
        let http = try XCTUnwrap(response as? HTTPURLResponse)
        var lowered: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { lowered[name.lowercased()] = value }
        }
        return Reply(status: http.statusCode, headers: lowered, body: data)
    }

    /// POSTs `fields` as `application/x-www-form-urlencoded`.
    func postForm(_ path: String, _ fields: [(String, String)], token: String? = nil,
                  headers: [String: String] = [:]) async throws -> Reply {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = fields.map { name, value in
            "\(name.addingPercentEncoding(withAllowedCharacters: allowed)!)=\(value.addingPercentEncoding(withAllowedCharacters: allowed)!)"
        }.joined(separator: "&")
        var headers = headers
        headers["Content-Type"] = "application/x-www-form-urlencoded"
        return try await send("POST", path, headers: headers, body: Data(body.utf8), token: token)
    }

    /// POSTs `object` as JSON.
    func postJSON(_ path: String, _ object: Any, token: String? = nil) async throws -> Reply {
        let body = try JSONSerialization.data(withJSONObject: object)
        return try await send("POST", path, headers: ["Content-Type": "application/json"], body: body, token: token)
    }

    /// Logs in as demo/demo and returns the access and refresh tokens.
    func login() async throws -> (token: String, refresh: String) {
        let reply = try await postForm("/tokens", [("grant_type", "password"), ("username", "demo"), ("password", "demo")])
        XCTAssertEqual(reply.status, 200, reply.text)
        return (try XCTUnwrap(reply.object["token"] as? String), try XCTUnwrap(reply.object["refresh_token"] as? String))
    }

    /// The server's `/_demo/stats` body.
    func stats() async throws -> [String: Any] {
        let reply = try await send("GET", "/_demo/stats")
        XCTAssertEqual(reply.status, 200)
        return reply.object
    }

    /// Waits until the server has counted `count` requests for `route` (as `GET /health`), polling
    /// its stats: the server gives no signal when it starts handling a request (its log has a line
    /// when it ends one). `timeout` is a hang guard only, far above the milliseconds this takes.
    func waitUntilServerCounts(
        _ count: Int, for route: String, timeout: Double = 30, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        func seen() async throws -> Int { (try await stats()["requests"] as? [String: Int])?[route] ?? 0 }
        var counted = try await seen()
        while counted < count, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            counted = try await seen()
        }
        XCTAssertEqual(counted, count, "the server counted \(counted) requests for \(route) within \(timeout) s", file: file, line: line)
    }

    /// A raw connection to the test server; each read waits at most `readTimeout` seconds, a hang
    /// guard by default.
    func rawClient(readTimeout: Double = RawClient.hangGuard) throws -> RawClient {
        try RawClient(port: server.port, readTimeout: readTimeout)
    }
}

/// Builds `multipart/form-data` bodies for tests, byte for byte.
struct MultipartBody {
    var boundary = "----BatonBoundary7MA4YWxkTrZu0gW"
    private(set) var bytes: [UInt8] = []

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    mutating func addPart(disposition: String, contentType: String? = nil, data: [UInt8]) {
        bytes += Array("--\(boundary)\r\nContent-Disposition: \(disposition)\r\n".utf8)
        if let contentType { bytes += Array("Content-Type: \(contentType)\r\n".utf8) }
        bytes += Array("\r\n".utf8) + data + Array("\r\n".utf8)
    }

    mutating func addFile(name: String = "photo", filename: String = "photo.jpg", contentType: String = "image/jpeg",
                          data: [UInt8]) {
        addPart(disposition: "form-data; name=\"\(name)\"; filename=\"\(filename)\"", contentType: contentType, data: data)
    }

    mutating func addText(name: String, _ text: String) {
        addPart(disposition: "form-data; name=\"\(name)\"", data: Array(text.utf8))
    }

    /// The body with its closing delimiter.
    var closed: Data { Data(bytes + Array("--\(boundary)--\r\n".utf8)) }
}

/// Deterministic pseudo-random bytes, so a failing upload test can be reproduced.
func testBytes(count: Int, seed: UInt64 = 1) -> [UInt8] {
    var generator = SplitMix64(seed: seed)
    var bytes = [UInt8](repeating: 0, count: count)
    var index = 0
    while index < count {
        var word = generator.next()
        for _ in 0..<8 where index < count {
            bytes[index] = UInt8(truncatingIfNeeded: word)
            word >>= 8
            index += 1
        }
    }
    return bytes
}
