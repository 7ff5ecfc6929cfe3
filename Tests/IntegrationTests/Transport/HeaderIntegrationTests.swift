@testable import BatonClient
import Foundation
import TestSupport
import XCTest

/// What arrives at the server: the User-Agent, default and endpoint headers, Accept, and bodies
/// with their content types (as `/_demo/echo` reports them, header names lower-cased).
final class HeaderIntegrationTests: IntegrationTestCase {
    func test_defaultUserAgent_arrivesAsBatonVersionAndLinux() async throws {
        let echo = try await client.send(Demo.echo()).value

        let userAgent = try XCTUnwrap(echo.headers["user-agent"])
        XCTAssertEqual(userAgent, Client.defaultUserAgent)
        XCTAssertTrue(userAgent.hasPrefix("Baton/0.1.0 (Linux "), userAgent)
        XCTAssertTrue(userAgent.hasSuffix(")"), userAgent)
    }

    func test_defaultHeaders_arriveUnderLowerCasedNames() async throws {
        let client = try makeClient { $0.headers["X-Trace"] = "trace-42"; $0.headers["X-Client-Name"] = "integration" }

        let echo = try await client.send(Demo.echo()).value

        XCTAssertEqual(echo.headers["x-trace"], "trace-42")
        XCTAssertEqual(echo.headers["x-client-name"], "integration")
        XCTAssertEqual(echo.headers["authorization"], "Bearer \(token!)")
    }

    func test_endpointHeader_overridesTheDefaultHeaderOfTheSameName() async throws {
        let client = try makeClient { $0.headers["X-Trace"] = "from-client" }

        let echo = try await client.send(Demo.echo(headers: ["X-Trace": "from-endpoint"])).value

        XCTAssertEqual(echo.headers["x-trace"], "from-endpoint")
    }

    /// Header names are case-insensitive (RFC 9110 §5.1), so `x-case-3` on the endpoint is the same
    /// field as the client's `X-Case-3`. (A merge by exact key once sent either value, depending on
    /// the process's hash seed; sixteen pairs all come out right by chance in one run in 65,536.)
    func test_endpointHeader_overridesTheDefaultHeader_whateverTheCaseOfItsName() async throws {
        let names = (0..<16).map { "X-Case-\($0)" }
        let client = try makeClient { configuration in
            for name in names { configuration.headers[name] = "from-client" }
        }
        let overrides = Dictionary(uniqueKeysWithValues: names.map { ($0.lowercased(), "from-endpoint") })

        let echo = try await client.send(Demo.echo(headers: overrides)).value

        let received = names.map { echo.headers[$0.lowercased()] ?? "nothing" }
        XCTAssertEqual(received, Array(repeating: "from-endpoint", count: 16))
    }

    func test_endpointUserAgent_overridesTheDefaultUserAgent() async throws {
        let echo = try await client.send(Demo.echo(headers: ["User-Agent": "MyApp/2.0"])).value

        XCTAssertEqual(echo.headers["user-agent"], "MyApp/2.0")
    }

    func test_configuredUserAgent_replacesBatons() async throws {
        let client = try makeClient { $0.userAgent = "DemoApp/1.0 (Baton)" }

        let echo = try await client.send(Demo.echo()).value

        XCTAssertEqual(echo.headers["user-agent"], "DemoApp/1.0 (Baton)")
    }

    func test_decodableEndpoint_sendsAcceptForJSON() async throws {
        let echo = try await client.send(Demo.echo()).value

        XCTAssertEqual(echo.headers["accept"], "application/json, application/*+json")
    }

    func test_bearerTokenAdapter_authorizesTheRequest() async throws {
        let token = self.token!
        let client = try makeClient(authorized: false) { $0.adapters = [BearerTokenAdapter { token }] }

        let echo = try await client.send(Demo.echo()).value
        let order = try await client.send(GetOrder(id: 3)).value

        XCTAssertEqual(echo.headers["authorization"], "Bearer \(token)")
        XCTAssertEqual(order, Fixtures.order(3))
    }

    func test_jsonBody_arrivesWithItsContentTypeAndExactBytes() async throws {
        let client = try makeClient { $0.encoder.outputFormatting = [.sortedKeys] }
        let expected = Data(#"{"content":"良い","rating":5}"#.utf8)

        let echo = try await client.send(Demo.echo(.post, body: .json(NewReview(content: "良い", rating: 5)))).value

        XCTAssertEqual(echo.method, "POST")
        XCTAssertEqual(echo.headers["content-type"], "application/json")
        XCTAssertEqual(echo.bodyBytes, expected.count)
        XCTAssertEqual(echo.bodySHA256, Fixtures.sha256Hex(expected))
    }

    func test_formBody_arrivesFormEncoded() async throws {
        let expected = Data("content=%E8%89%AF%E3%81%84+%26+x%3Dy&rating=5".utf8)

        let echo = try await client.send(Demo.echo(.post, body: .form([("content", "良い & x=y"), ("rating", "5")]))).value

        XCTAssertEqual(echo.headers["content-type"], "application/x-www-form-urlencoded")
        XCTAssertEqual(echo.bodyBytes, expected.count)
        XCTAssertEqual(echo.bodySHA256, Fixtures.sha256Hex(expected))
    }

    func test_queryItems_arriveEncodedWithReservedCharactersEscaped() async throws {
        let request = Request<Echo>(.get, "_demo/echo", query: [
            URLQueryItem(name: "name", value: "山田"), URLQueryItem(name: "q", value: "a+b&c=d e"),
        ])

        let echo = try await client.send(request).value

        XCTAssertEqual(echo.path, "/_demo/echo")
        XCTAssertEqual(echo.query, "name=%E5%B1%B1%E7%94%B0&q=a%2Bb%26c%3Dd%20e")
    }
}
