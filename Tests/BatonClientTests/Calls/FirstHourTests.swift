import Baton
import Dispatch
import TestSupport
import XCTest

/// What a new user meets in the first hour: `import Baton` alone is enough for an adapter (no
/// FoundationNetworking to discover), errors read as sentences everywhere, a base URL that cannot
/// work is refused at once, failures after retries say so, runtime paths, and handlers on a queue
/// of the app's choosing.
final class FirstHourTests: XCTestCase {
    /// Compiles with `import Baton` alone: `URLRequest` comes with it on every platform.
    private struct UserAgentAdapter: RequestAdapter {
        func adapt(_ request: URLRequest, context: AttemptContext) async throws -> URLRequest {
            var request = request
            request.setValue("first-hour", forHTTPHeaderField: "User-Agent")
            return request
        }
    }

    func test_aBaseURLThatCannotWork_isRefusedWhenTheClientIsMade_sayingWhy() {
        let cases = [
            ("localhost", #""localhost" cannot be a base URL: it has no scheme; write https://localhost/ or http://localhost/."#),
            ("ftp://files.example.com/", #""ftp://files.example.com/" cannot be a base URL: its scheme is ftp, and Baton speaks http and https only."#),
            ("http://", #""http:" cannot be a base URL: it has no host."#),
        ]
        for (text, sentence) in cases {
            let url = URL(string: text) ?? URL(fileURLWithPath: "/")
            XCTAssertThrowsError(try Client(baseURL: url)) { error in
                XCTAssertEqual((error as? ConfigurationError)?.kind, .invalidBaseURL)
                XCTAssertEqual(error.localizedDescription, sentence.replacingOccurrences(of: #""http:""#, with: "\"\(url.absoluteString)\""))
            }
        }
        XCTAssertNoThrow(try Client(baseURL: URL(string: "https://api.example.com/v1/")!))
    }

    /// `"localhost:8080"` parses as the scheme `localhost`: the sentence says what to write.
    func test_aHostAndPortWithoutAScheme_isToldWhatToWrite() {
        XCTAssertThrowsError(try Client(baseURL: URL(string: "localhost:8080")!)) { error in
            XCTAssertEqual(
                "\(error)",
                #""localhost:8080" cannot be a base URL: it has no scheme, so "localhost" reads as one; write https://localhost:8080/ or http://localhost:8080/."#
            )
        }
        XCTAssertThrowsError(try Client(baseURL: URL(string: "localhost:8080/api/")!)) { error in
            XCTAssertTrue("\(error)".hasSuffix("write https://localhost:8080/api/ or http://localhost:8080/api/."), "\(error)")
        }
    }

    /// A client from a string throws the sentence where `URL(string:)!` would crash.
    func test_aClientFromAString_throwsTheSentence_whereURLStringWouldBeNil() throws {
        XCTAssertNil(URL(string: "127.0.0.1:8080"), "the crash this initializer spares")
        let cases = [
            ("127.0.0.1:8080", #""127.0.0.1:8080" cannot be a base URL: it has no scheme; write https://127.0.0.1:8080/ or http://127.0.0.1:8080/."#),
            ("localhost:8080", #""localhost:8080" cannot be a base URL: it has no scheme, so "localhost" reads as one; write https://localhost:8080/ or http://localhost:8080/."#),
            ("http://exa mple.com/", #""http://exa mple.com/" cannot be a base URL: it is not a URL (spaces and some other characters must be percent-encoded)."#),
            ("demo:s3cr3t@localhost:8080", #""demo:xxx@localhost:8080" cannot be a base URL: its scheme is demo, and Baton speaks http and https only."#),
        ]
        for (text, sentence) in cases {
            XCTAssertThrowsError(try Client(baseURL: text)) { error in
                XCTAssertEqual((error as? ConfigurationError)?.kind, .invalidBaseURL)
                XCTAssertEqual("\(error)", sentence)
            }
        }
        let client = try Client(baseURL: "http://localhost:8080/") { $0.maximumResponseSize = 1 << 20 }
        XCTAssertEqual(client.configuration.baseURL.absoluteString, "http://localhost:8080/")
        XCTAssertEqual(client.configuration.maximumResponseSize, 1 << 20)
    }

    func test_aRefusedBaseURL_neverShowsItsPassword() {
        XCTAssertThrowsError(try Client(baseURL: URL(string: "ftp://me:s3cr3t@files.example.com/")!)) { error in
            XCTAssertFalse("\(error)".contains("s3cr3t"), "\(error)")
            XCTAssertTrue("\(error)".contains("me:xxx@files.example.com"), "\(error)")
        }
    }

    func test_localizedDescription_isTheErrorsSentence() async throws {
        let client = try makeClient(transport: StubTransport { _, _ in HTTPResponse(statusCode: 404) })
        do {
            _ = try await client.send(Request<Order>(.get, "orders/9")).value
            XCTFail("expected a 404")
        } catch {
            XCTAssertEqual(error.localizedDescription, "GET http://h/orders/9 failed: the server answered 404 Not Found.")
        }
    }

    func test_aFailureAfterRetries_saysHowManyAttemptsAndHowLong() async throws {
        let client = try makeClient(transport: StubTransport { _, _ in throw URLError(.timedOut) }) {
            $0.retryPolicy = RetryPolicy(retryLimit: 2, baseDelay: .milliseconds(1))
        }
        do {
            _ = try await client.send(Request<Order>(.get, "orders/1")).value
            XCTFail("expected a timeout")
        } catch let error as APIError {
            XCTAssertEqual(error.attempts, 3)
            XCTAssertNotNil(error.duration)
            let sentence = error.description
            XCTAssertTrue(sentence.hasPrefix("GET http://h/orders/1 failed before a response arrived: the request timed out (URLError.Code -1001), after 3 attempts over "), sentence)
            XCTAssertTrue(sentence.hasSuffix(" s."), sentence)
        }
    }

    func test_aPathFromARuntimeString_keepsItsSlashes() async throws {
        let transport = StubTransport { _, _ in .json(Fixtures.orderJSON) }
        let client = try makeClient(transport: transport) { $0.adapters = [UserAgentAdapter()] }
        let link = "/orders/1"

        _ = try await client.send(Request<Order>(.get, EndpointPath(link))).value

        XCTAssertEqual(transport.requests.first?.url?.absoluteString, "http://h/orders/1")
        XCTAssertEqual(transport.requests.first?.value(forHTTPHeaderField: "User-Agent"), "first-hour")
    }

    func test_deliveryQueue_runsHandlersAddedWithoutAQueue_andTheirChainedSteps_there() async throws {
        let queue = DispatchQueue(label: "app.main")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        // Answered by hand once the handlers are in place: a handler added to a promise that has
        // already settled runs at once, on the thread adding it.
        let transport = ManualTransport()
        let client = try makeClient(transport: transport) { $0.deliveryQueue = queue }
        let onQueue = Recorder<Bool>()

        let chained = client.send(Request<Order>(.get, "orders/1"))
            .success { order -> Int in
                onQueue.append(DispatchQueue.getSpecific(key: key) == true)
                return order.id
            }
            .success { id -> Int in
                onQueue.append(DispatchQueue.getSpecific(key: key) == true)
                return id
            }
        transport.exchange(0).fulfill(.json(Fixtures.orderJSON))
        _ = try await chained.value

        XCTAssertEqual(onQueue.events, [true, true])
    }
}
