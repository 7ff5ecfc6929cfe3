@testable import BatonClient
import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// Redirects between two real servers: A (the main one, `server`) and B (another origin: another
/// port). Credentials must not follow a redirect to another origin; 307 and 308 keep the method and
/// the body; 303 turns a POST into a GET.
final class RedirectIntegrationTests: IntegrationTestCase {
    /// The other origin.
    private var serverB: DemoServer!

    override func setUp() async throws {
        try await super.setUp()
        serverB = try Self.fixture("B").server
        try await reset(serverB)
    }

    /// `<B>/_demo/echo`, absolute.
    private var echoOnB: String { serverB.baseURL.absoluteString + "/_demo/echo" }

    /// A client of A sending the token, a cookie, a session token it marks sensitive, and a trace
    /// header that is not a secret.
    private func clientWithSecrets(configure: (inout Client.Configuration) -> Void = { _ in }) throws -> Client {
        try makeClient { configuration in
            configuration.headers["Cookie"] = "session=s3cr3t"
            configuration.headers["X-Session-Token"] = "session-token-value"
            configuration.headers["X-Trace"] = "trace-7"
            configuration.sensitiveHeaders = ["X-Session-Token"]
            configure(&configuration)
        }
    }

    // MARK: Credentials

    func test_crossOriginRedirect_dropsAuthorizationCookieAndSensitiveHeaders() async throws {
        let echo = try await clientWithSecrets().send(Demo.redirect(status: 302, to: echoOnB)).value

        XCTAssertEqual(echo.headers["host"], "127.0.0.1:\(serverB.port)")
        XCTAssertNil(echo.headers["authorization"])
        XCTAssertNil(echo.headers["cookie"])
        XCTAssertNil(echo.headers["x-session-token"])
    }

    func test_crossOriginRedirect_keepsOtherHeaders() async throws {
        let echo = try await clientWithSecrets().send(Demo.redirect(status: 302, to: echoOnB)).value

        XCTAssertEqual(echo.headers["x-trace"], "trace-7")
        XCTAssertEqual(echo.headers["user-agent"], Client.defaultUserAgent)
        XCTAssertEqual(echo.headers["accept"], "application/json, application/*+json")
    }

    func test_crossOriginRedirect_dropsTheTokenOfABearerTokenAdapter() async throws {
        let token = self.token!
        let client = try makeClient(authorized: false) { $0.adapters = [BearerTokenAdapter { token }] }

        let echo = try await client.send(Demo.redirect(status: 301, to: echoOnB)).value

        XCTAssertEqual(echo.headers["host"], "127.0.0.1:\(serverB.port)")
        XCTAssertNil(echo.headers["authorization"])
    }

    func test_sameOriginRedirect_keepsAuthorizationCookieAndSensitiveHeaders() async throws {
        let echo = try await clientWithSecrets().send(Demo.redirect(status: 302, to: "/_demo/echo")).value

        XCTAssertEqual(echo.headers["host"], "127.0.0.1:\(server.port)")
        XCTAssertEqual(echo.headers["authorization"], "Bearer \(token!)")
        XCTAssertEqual(echo.headers["cookie"], "session=s3cr3t")
        XCTAssertEqual(echo.headers["x-session-token"], "session-token-value")
        XCTAssertEqual(echo.headers["x-trace"], "trace-7")
    }

    func test_sameOriginRedirect_byAbsoluteURL_keepsAuthorization() async throws {
        let echo = try await client.send(Demo.redirect(status: 307, to: server.baseURL.absoluteString + "/_demo/echo")).value

        XCTAssertEqual(echo.headers["authorization"], "Bearer \(token!)")
    }

    func test_crossOriginRedirect_stillReachesAProtectedRouteOnlyWithoutCredentials() async throws {
        // B's /orders/1 needs a token; the redirected request arrives without A's.
        let error = await apiError(client.send(Request<Order>(.get, "_demo/redirect", query: [
            URLQueryItem(name: "status", value: "302"), URLQueryItem(name: "to", value: serverB.baseURL.absoluteString + "/orders/1"),
        ])))

        XCTAssertEqual(error?.statusCode, 401)
        guard let matched = error, matched.kind == .unacceptableStatus else { return XCTFail("\(String(describing: error))") }
        let message = matched.serverMessage
        XCTAssertEqual(message, "unauthorized")
    }

    // MARK: Methods and bodies

    private let jsonBody = Data(#"{"content":"リダイレクト後も同じ本文","rating":4,"tags":["a","b"]}"#.utf8)

    func test_307And308_postWithJSONBody_arrivesOnBAsPostWithTheSameBody_whenBodiesMayCrossOrigins() async throws {
        let client = try clientWithSecrets { $0.redirects.sendsBodyAcrossOrigins = true }
        for status in [307, 308] {
            let echo = try await client.send(Demo.redirect(.post, status: status, to: echoOnB,
                                                           body: .data(jsonBody, contentType: "application/json"))).value

            XCTAssertEqual(echo.headers["host"], "127.0.0.1:\(serverB.port)", "\(status)")
            XCTAssertEqual(echo.method, "POST", "\(status)")
            XCTAssertEqual(echo.bodyBytes, jsonBody.count, "\(status), what arrived: \(echo)")
            XCTAssertEqual(echo.bodySHA256, Fixtures.sha256Hex(jsonBody), "\(status)")
            XCTAssertEqual(echo.headers["content-type"], "application/json", "\(status)")
        }
    }

    /// Credentials stay behind even when the body may follow, on 307 and 308 alike.
    func test_307And308AcrossOrigins_withTheBodyAllowed_carryNoCredentials() async throws {
        let client = try clientWithSecrets { $0.redirects.sendsBodyAcrossOrigins = true }
        for status in [307, 308] {
            let echo = try await client.send(Demo.redirect(.post, status: status, to: echoOnB,
                                                           body: .data(jsonBody, contentType: "application/json"))).value

            XCTAssertEqual(echo.bodySHA256, Fixtures.sha256Hex(jsonBody), "\(status)")
            XCTAssertNil(echo.headers["authorization"], "\(status)")
            XCTAssertNil(echo.headers["cookie"], "\(status)")
            XCTAssertNil(echo.headers["x-session-token"], "\(status)")
        }
    }

    /// A cross-origin 307 re-sent a body holding a password to the other host.
    func test_307WithABody_toAnotherOrigin_isRefusedByDefault_andNothingReachesIt() async throws {
        let error = await apiError(client.send(Demo.redirect(.post, status: 307, to: echoOnB,
                                                             body: .form([("password", "hunter2")]))))

        XCTAssertEqual(error?.kind, .redirectRefused)
        XCTAssertEqual(error?.statusCode, 307)
        let echoes = try await requestCount("POST /_demo/echo", on: serverB)
        XCTAssertEqual(echoes, 0)
    }

    /// libcurl follows only http and https, but Baton follows redirects itself: a 307 to
    /// `ftp://` made the client log in to an FTP server.
    func test_redirectToAnotherScheme_isRefused_withAndWithoutABody() async {
        let ftp = await apiError(client.send(Demo.redirect(.post, status: 307, to: "ftp://127.0.0.1:\(serverB.port)/",
                                                           body: .data(jsonBody, contentType: "application/json"))))
        XCTAssertEqual(ftp?.kind, .redirectRefused)
        XCTAssertEqual(ftp?.reason, "it points to a ftp URL, and only http and https are followed")

        let file = await apiError(client.send(Demo.redirect(status: 302, to: "file:///etc/passwd")))
        XCTAssertEqual(file?.kind, .redirectRefused)
    }

    /// The redirect is refused before any connection: a listener where the FTP server would be
    /// sees none.
    func test_redirectToFTP_neverConnectsToTheListener() async throws {
        let listener = try SilentListener()

        let error = await apiError(client.send(Demo.redirect(.post, status: 307, to: "ftp://127.0.0.1:\(listener.port)/",
                                                             body: .form([("password", "hunter2")]))))

        XCTAssertEqual(error?.kind, .redirectRefused)
        XCTAssertEqual(listener.takeConnections(), 0)
    }

    /// A 301 of a PUT arrived as an empty PUT with `Content-Type: application/json`, which can
    /// overwrite data.
    func test_301And302OfAPut_resendTheBody() async throws {
        for status in [301, 302] {
            let echo = try await client.send(Demo.redirect(.put, status: status, to: "/_demo/echo",
                                                           body: .data(jsonBody, contentType: "application/json"))).value
            XCTAssertEqual(echo.method, "PUT", "\(status)")
            XCTAssertEqual(echo.bodyBytes, jsonBody.count, "\(status)")
            XCTAssertEqual(echo.bodySHA256, Fixtures.sha256Hex(jsonBody), "\(status)")
        }
    }

    func test_302OfAPost_arrivesAsAGetWithoutBodyOrContentType() async throws {
        let echo = try await client.send(Demo.redirect(.post, status: 302, to: "/_demo/echo",
                                                       body: .data(jsonBody, contentType: "application/json"))).value

        XCTAssertEqual(echo.method, "GET")
        XCTAssertEqual(echo.bodyBytes, 0)
        XCTAssertNil(echo.headers["content-type"])
    }

    /// Only the default transport used to learn the client's sensitive headers.
    func test_aTransportGivenToTheClient_stillHasSensitiveHeadersStripped() async throws {
        var configuration = Client.Configuration(baseURL: server.baseURL)
        configuration.headers = ["X-Api-Key": "k-123", "Authorization": "Bearer \(token!)"]
        configuration.sensitiveHeaders = ["X-Api-Key"]
        let client = try Client(configuration: configuration, transport: urlSessionTransport())

        let echo = try await client.send(Demo.redirect(status: 302, to: echoOnB)).value

        XCTAssertEqual(echo.headers["host"], "127.0.0.1:\(serverB.port)")
        XCTAssertNil(echo.headers["x-api-key"])
        XCTAssertNil(echo.headers["authorization"])
    }

    func test_307_postToTheSameOrigin_keepsMethodAndBody() async throws {
        let echo = try await client.send(Demo.redirect(.post, status: 307, to: "/_demo/echo",
                                                       body: .data(jsonBody, contentType: "application/json"))).value

        XCTAssertEqual(echo.method, "POST")
        XCTAssertEqual(echo.bodyBytes, jsonBody.count, "what arrived: \(echo)")
        XCTAssertEqual(echo.bodySHA256, Fixtures.sha256Hex(jsonBody))
    }

    func test_303_turnsAPostIntoAGetWithoutBody() async throws {
        let echo = try await client.send(Demo.redirect(.post, status: 303, to: echoOnB,
                                                       body: .data(jsonBody, contentType: "application/json"))).value

        XCTAssertEqual(echo.headers["host"], "127.0.0.1:\(serverB.port)")
        XCTAssertEqual(echo.method, "GET")
        XCTAssertEqual(echo.bodyBytes, 0)
    }

    // MARK: Not following

    func test_neverPolicy_handsBackTheRedirectItself() async throws {
        var configuration = Client.Configuration(baseURL: server.baseURL)
        configuration.retryPolicy = nil
        configuration.redirects = .never
        let client = try Client(configuration: configuration)

        let error = await apiError(client.send(Demo.redirect(status: 302, to: echoOnB)))

        XCTAssertEqual(error?.statusCode, 302)
        XCTAssertEqual(error?.response?.value(forHeader: "Location"), echoOnB)
        let echoes = try await requestCount("GET /_demo/echo", on: serverB)
        XCTAssertEqual(echoes, 0)
    }
}
