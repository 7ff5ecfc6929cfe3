@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// The header fields of a built request: the User-Agent, defaults and overrides, Accept, and the
/// names and values refused before anything is sent.
final class RequestHeaderClientTests: XCTestCase {
    func test_defaultUserAgent_isBatonVersionAndLinuxVersion() async throws {
        let pattern = #"^Baton/0\.1\.0 \(Linux \d+\.\d+\.\d+\)$"#
        XCTAssertNotNil(Client.defaultUserAgent.range(of: pattern, options: .regularExpression), Client.defaultUserAgent)
        let request = try await sentRequest(Request<Order>(.get, "orders/1"))
        XCTAssertEqual(request?.value(forHTTPHeaderField: "User-Agent"), Client.defaultUserAgent)
    }

    func test_configuredUserAgentProperty_isSent() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1")) { $0.userAgent = "OrdersApp/3.1" }
        XCTAssertEqual(request?.value(forHTTPHeaderField: "User-Agent"), "OrdersApp/3.1")
    }

    func test_configuredUserAgentHeader_winsOverDefault() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1")) { $0.headers = ["User-Agent": "MyApp/2.0"] }
        XCTAssertEqual(request?.value(forHTTPHeaderField: "User-Agent"), "MyApp/2.0")
    }

    func test_configuredUserAgentHeaderInLowerCase_winsOverDefault() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1")) { $0.headers = ["user-agent": "MyApp/2.0"] }
        XCTAssertEqual(request?.value(forHTTPHeaderField: "User-Agent"), "MyApp/2.0")
    }

    func test_configurationHeaders_areSent() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1")) {
            $0.headers = ["X-Session-Token": "s-1", "X-Client": "tests"]
        }
        XCTAssertEqual(request?.value(forHTTPHeaderField: "X-Session-Token"), "s-1")
        XCTAssertEqual(request?.value(forHTTPHeaderField: "X-Client"), "tests")
    }

    func test_endpointHeaders_overrideConfigurationHeaders() async throws {
        let endpoint = Request<Order>(.get, "orders/1", headers: ["X-Session-Token": "from-endpoint"])
        let request = try await sentRequest(endpoint) { $0.headers = ["X-Session-Token": "from-configuration"] }
        XCTAssertEqual(request?.value(forHTTPHeaderField: "X-Session-Token"), "from-endpoint")
    }

    /// Header names are case-insensitive (RFC 9110 §5.1), so an endpoint's `x-h3` must replace
    /// the configuration's `X-H3`. Sixteen pairs make a lucky pass (2^-16) out of the question:
    /// which of two differently-cased keys the builder applies last depends on dictionary order.
    func test_endpointHeaders_overrideConfigurationHeadersSpelledInAnotherCase() async throws {
        let names = (0..<16).map { "X-H\($0)" }
        var endpointHeaders: [String: String] = [:]
        for name in names { endpointHeaders[name.lowercased()] = "endpoint" }
        let endpoint = Request<Order>(.get, "orders/1", headers: endpointHeaders)
        let request = try await sentRequest(endpoint) { configuration in
            for name in names { configuration.headers[name] = "configuration" }
        }
        let values = names.map { request?.value(forHTTPHeaderField: $0) }
        XCTAssertEqual(values, Array(repeating: "endpoint", count: names.count))
    }

    func test_decodableResponse_acceptsJSONTypes() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1"))
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Accept"), "application/json, application/*+json")
    }

    func test_dataResponse_sendsNoAcceptHeader() async throws {
        let request = try await sentRequest(Request<Data>(.get, "files/1"))
        XCTAssertNil(request?.value(forHTTPHeaderField: "Accept"))
    }

    func test_configurationAcceptHeader_winsOverTheJSONDefault() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1")) { $0.headers = ["Accept": "application/vnd.api+json"] }
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Accept"), "application/vnd.api+json")
    }

    func test_configurationAcceptHeaderInLowerCase_winsOverTheJSONDefault() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1")) { $0.headers = ["accept": "application/vnd.api+json"] }
        XCTAssertEqual(request?.allHTTPHeaderFields?.filter { $0.key.lowercased() == "accept" }, ["accept": "application/vnd.api+json"])
    }

    func test_endpointAcceptingOtherTypes_sendsThemAsAccept() async throws {
        var endpoint = Request<String>(.get, "orders/1")
        endpoint.acceptableContentTypes = ["application/xml", "text/*"]
        let request = try await sentRequest(endpoint, response: HTTPResponse(statusCode: 200, headers: ["Content-Type": "text/plain"]))
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Accept"), "application/xml, text/*")
    }

    func test_endpointAcceptHeader_wins() async throws {
        let endpoint = Request<Order>(.get, "orders/1", headers: ["Accept": "application/vnd.orders+json"])
        let request = try await sentRequest(endpoint)
        XCTAssertEqual(request?.value(forHTTPHeaderField: "Accept"), "application/vnd.orders+json")
    }

    func test_headerNameWithSpace_isInvalidRequestAndNothingIsSent() async throws {
        let (error, requests) = try await failedSend(Request<Order>(.get, "orders/1", headers: ["X Bad": "1"]))
        let parts = invalidRequestParts(error)
        XCTAssertEqual(parts?.field, #"header "X Bad""#)
        XCTAssertEqual(parts?.reason, "the name is not an HTTP token")
        XCTAssertEqual(requests.count, 0)
    }

    /// The builder looks for "\r" and "\n" among the value's Characters, but "\r\n" is one
    /// Character (a single grapheme cluster) equal to neither, so a CRLF slips through; on Linux
    /// URLRequest then drops the header silently and the request goes out without it.
    func test_headerValueWithCRLF_isInvalidRequestAndNothingIsSent() async throws {
        let endpoint = Request<Order>(.get, "orders/1", headers: ["X-Note": "a\r\nX-Injected: 1"])
        let (error, requests) = try await failedSend(endpoint)
        let parts = invalidRequestParts(error)
        XCTAssertEqual(parts?.field, #"header "X-Note""#)
        XCTAssertEqual(parts?.reason, "the value contains the control character U+000D")
        XCTAssertEqual(requests.count, 0)
    }

    func test_headerValueWithAnyControlCharacter_isInvalidRequestNamingIt() async throws {
        for (value, code) in [("a\u{01}b", "U+0001"), ("a\u{1F}", "U+001F"), ("a\u{7F}", "U+007F"), ("\u{0}", "U+0000")] {
            let (error, requests) = try await failedSend(Request<Order>(.get, "orders/1", headers: ["X-Note": value]))
            XCTAssertEqual(invalidRequestParts(error)?.reason, "the value contains the control character \(code)")
            XCTAssertEqual(requests.count, 0)
        }
    }

    func test_headerValueWithATab_isSent() async throws {
        let request = try await sentRequest(Request<Order>(.get, "orders/1", headers: ["X-Note": "a\tb"]))
        XCTAssertEqual(request?.value(forHTTPHeaderField: "X-Note"), "a\tb")
    }

    /// URLRequest on Linux drops a value holding a line break without a word: the call went out
    /// with no `Authorization` at all. Baton's adapters refuse such a value instead.
    func test_bearerTokenWithALineBreak_failsTheCallNamingTheHeader_andSendsNothing() async throws {
        let adapter = BearerTokenAdapter { "abc\r\nX-Injected: 1" }
        let (error, requests) = try await failedSend(Request<Order>(.get, "orders/1")) { $0.adapters = [adapter]; $0.retryPolicy = nil }
        let parts = invalidRequestParts(error)
        XCTAssertEqual(parts?.field, #"header "Authorization" (set by an adapter)"#)
        XCTAssertEqual(parts?.reason, "the value contains the control character U+000D")
        XCTAssertFalse("\(String(describing: error))".contains("abc"), "the token stays out of the error")
        XCTAssertEqual(requests.count, 0)
    }

    func test_headersAdapterValueWithALineBreak_failsTheCall_andSendsNothing() async throws {
        let adapter = HeadersAdapter(["X-Session": "s\nX-Evil: 1"])
        let (error, requests) = try await failedSend(Request<Order>(.get, "orders/1")) { $0.adapters = [adapter]; $0.retryPolicy = nil }
        XCTAssertEqual(invalidRequestParts(error)?.field, #"header "X-Session" (set by an adapter)"#)
        XCTAssertEqual(requests.count, 0)
    }

    func test_configurationHeaderValueWithNewline_isInvalidRequestAndNothingIsSent() async throws {
        let (error, requests) = try await failedSend(Request<Order>(.get, "orders/1")) { $0.headers = ["X-Note": "a\nb"] }
        XCTAssertEqual(invalidRequestParts(error)?.field, #"header "X-Note""#)
        XCTAssertEqual(requests.count, 0)
    }

    func test_headerNameWithNonASCII_isInvalidRequest() async throws {
        let (error, requests) = try await failedSend(Request<Order>(.get, "orders/1", headers: ["X-名前": "1"]))
        XCTAssertEqual(invalidRequestParts(error)?.field, #"header "X-名前""#)
        XCTAssertEqual(requests.count, 0)
    }
}
