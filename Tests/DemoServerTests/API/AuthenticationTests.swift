import XCTest
import BatonSupport
@testable import DemoServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `POST /tokens`, bearer authentication and its challenges, refresh rotation, expiry.
final class AuthenticationTests: ServerTestCase {
    func test_passwordGrant_issuesDistinctTokensWithTheConfiguredLifetime() async throws {
        let reply = try await postForm("/tokens", [("grant_type", "password"), ("username", "demo"), ("password", "demo")])
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.headers["content-type"], "application/json; charset=utf-8")
        XCTAssertEqual(Set(reply.object.keys), ["token", "refresh_token", "expires_in"])
        XCTAssertEqual(reply.object["expires_in"] as? Int, 60)
        let token = try XCTUnwrap(reply.object["token"] as? String)
        let refresh = try XCTUnwrap(reply.object["refresh_token"] as? String)
        XCTAssertEqual(token.count, 35)
        XCTAssertNotEqual(token, refresh)
        let second = try await login()
        XCTAssertNotEqual(second.token, token)
    }

    func test_passwordGrantAsJSON_issuesTokens() async throws {
        let reply = try await postJSON("/tokens", ["grant_type": "password", "username": "demo", "password": "demo"])
        XCTAssertEqual(reply.status, 200)
        let token = try XCTUnwrap(reply.object["token"] as? String)
        let order = try await send("GET", "/orders/1", token: token)
        XCTAssertEqual(order.status, 200)
    }

    func test_wrongPassword_answers400InvalidGrant() async throws {
        let reply = try await postForm("/tokens", [("grant_type", "password"), ("username", "demo"), ("password", "nope")])
        XCTAssertEqual(reply.status, 400)
        XCTAssertEqual(reply.message, "invalid_grant")
    }

    func test_missingPassword_answers400InvalidRequest() async throws {
        let reply = try await postForm("/tokens", [("grant_type", "password"), ("username", "demo")])
        XCTAssertEqual(reply.status, 400)
        XCTAssertEqual(reply.message, "invalid_request")
    }

    func test_missingGrantType_answers400InvalidRequest() async throws {
        let reply = try await postForm("/tokens", [("username", "demo"), ("password", "demo")])
        XCTAssertEqual(reply.message, "invalid_request")
    }

    func test_unknownGrantType_answers400UnsupportedGrantType() async throws {
        let reply = try await postForm("/tokens", [("grant_type", "urn:example:unknown")])
        XCTAssertEqual(reply.status, 400)
        XCTAssertEqual(reply.message, "unsupported_grant_type")
    }

    func test_tokensWithPlainTextBody_answers415() async throws {
        let reply = try await send("POST", "/tokens", headers: ["Content-Type": "text/plain"], body: Data("grant_type=password".utf8))
        XCTAssertEqual(reply.status, 415)
    }

    func test_refresh_rotatesTheRefreshTokenAndRejectsTheOldOne() async throws {
        let session = try await login()
        let refreshed = try await postForm("/tokens", [("grant_type", "refresh_token"), ("refresh_token", session.refresh)])
        XCTAssertEqual(refreshed.status, 200)
        let newRefresh = try XCTUnwrap(refreshed.object["refresh_token"] as? String)
        XCTAssertNotEqual(newRefresh, session.refresh)
        let newToken = try XCTUnwrap(refreshed.object["token"] as? String)
        let order = try await send("GET", "/orders/2", token: newToken)
        XCTAssertEqual(order.status, 200)

        let replayed = try await postForm("/tokens", [("grant_type", "refresh_token"), ("refresh_token", session.refresh)])
        XCTAssertEqual(replayed.status, 400)
        XCTAssertEqual(replayed.message, "invalid_grant")
        let stats = try await stats()
        XCTAssertEqual(stats["logins"] as? Int, 1)
        XCTAssertEqual(stats["token_refreshes"] as? Int, 1)
        XCTAssertEqual(stats["refresh_tokens_rejected"] as? Int, 1)
    }

    func test_unknownRefreshToken_answers400InvalidGrant() async throws {
        let reply = try await postJSON("/tokens", ["grant_type": "refresh_token", "refresh_token": "rt_unknown"])
        XCTAssertEqual(reply.status, 400)
        XCTAssertEqual(reply.message, "invalid_grant")
    }

    func test_newLogin_doesNotRevokeAnEarlierSession() async throws {
        let first = try await login()
        _ = try await login()
        let reply = try await send("GET", "/users/1", token: first.token)
        XCTAssertEqual(reply.status, 200)
    }

    func test_missingAuthorization_answers401WithBareBearerChallenge() async throws {
        let reply = try await send("GET", "/orders/1")
        XCTAssertEqual(reply.status, 401)
        XCTAssertEqual(reply.message, "unauthorized")
        XCTAssertEqual(reply.headers["www-authenticate"], "Bearer")
    }

    func test_basicScheme_countsAsAMissingHeader() async throws {
        let reply = try await send("GET", "/orders/1", headers: ["Authorization": "Basic ZGVtbzpkZW1v"])
        XCTAssertEqual(reply.status, 401)
        XCTAssertEqual(reply.message, "unauthorized")
        XCTAssertEqual(reply.headers["www-authenticate"], "Bearer")
    }

    func test_unknownToken_answers401WithInvalidTokenChallenge() async throws {
        let reply = try await send("GET", "/orders/1", token: "at_made_up")
        XCTAssertEqual(reply.status, 401)
        XCTAssertEqual(reply.message, "invalid_token")
        XCTAssertEqual(reply.headers["www-authenticate"], "Bearer error=\"invalid_token\"")
    }

    func test_expireTokensRoute_expiresAccessTokensButRefreshStillWorks() async throws {
        let session = try await login()
        let expire = try await send("POST", "/_demo/expire-tokens")
        XCTAssertEqual(expire.status, 204)
        let rejected = try await send("GET", "/orders/1", token: session.token)
        XCTAssertEqual(rejected.status, 401)
        XCTAssertEqual(rejected.message, "invalid_token")
        XCTAssertEqual(rejected.headers["www-authenticate"], "Bearer error=\"invalid_token\"")
        let refreshed = try await postForm("/tokens", [("grant_type", "refresh_token"), ("refresh_token", session.refresh)])
        XCTAssertEqual(refreshed.status, 200)
        let accepted = try await send("GET", "/orders/1", token: try XCTUnwrap(refreshed.object["token"] as? String))
        XCTAssertEqual(accepted.status, 200)
    }

    /// A typo in a path must not read as a failed login: unknown is 404, token or not.
    func test_unknownPath_answers404_withOrWithoutAToken() async throws {
        let anonymous = try await send("GET", "/no/such/thing")
        XCTAssertEqual(anonymous.status, 404)
        XCTAssertEqual(anonymous.message, "not_found")
        let wrongMethod = try await send("DELETE", "/orders/1")
        XCTAssertEqual(wrongMethod.status, 404)
        let session = try await login()
        let known = try await send("GET", "/no/such/thing", token: session.token)
        XCTAssertEqual(known.status, 404)
        XCTAssertEqual(known.message, "not_found")
    }

    func test_publicRoutes_needNoToken() async throws {
        let health = try await send("GET", "/health")
        XCTAssertEqual(health.status, 200)
        let echo = try await send("GET", "/_demo/echo")
        XCTAssertEqual(echo.status, 200)
        let stats = try await send("GET", "/_demo/stats")
        XCTAssertEqual(stats.status, 200)
    }
}

/// Tokens that expire by themselves, measured against a clock the test moves by hand: the token
/// expires at an exact point of the test, however long the requests take on a busy machine.
final class TokenLifetimeTests: ServerTestCase {
    /// The server's time for token lifetimes; it moves only when a test moves it.
    private let clock = Locked(ContinuousClock.now)

    override func makeConfiguration() -> DemoServer.Configuration {
        var configuration = super.makeConfiguration()
        configuration.tokenLifetime = 1.5
        let clock = self.clock
        configuration.tokenClock = { clock.value }
        return configuration
    }

    private func advanceClock(by duration: Duration) {
        clock.withLock { $0 += duration }
    }

    func test_expiredToken_answers401WithInvalidTokenChallenge() async throws {
        let reply = try await postForm("/tokens", [("grant_type", "password"), ("username", "demo"), ("password", "demo")])
        // 1.5 s is reported rounded up to whole seconds.
        XCTAssertEqual(reply.object["expires_in"] as? Int, 2)
        let token = try XCTUnwrap(reply.object["token"] as? String)
        let fresh = try await send("GET", "/books/1", token: token)
        XCTAssertEqual(fresh.status, 200)
        advanceClock(by: .milliseconds(1_499))
        let lastMoment = try await send("GET", "/books/1", token: token)
        XCTAssertEqual(lastMoment.status, 200, "the token expired before its lifetime was over")
        advanceClock(by: .milliseconds(1))
        let expired = try await send("GET", "/books/1", token: token)
        XCTAssertEqual(expired.status, 401)
        XCTAssertEqual(expired.message, "invalid_token")
        XCTAssertEqual(expired.headers["www-authenticate"], "Bearer error=\"invalid_token\"")
    }
}
