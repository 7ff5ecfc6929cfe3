import BatonSupport
@testable import BatonPromise
@testable import BatonClient
@testable import BatonAuth
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

final class AuthenticatorTests: XCTestCase {
    private let server = FakeAuthServer()
    private let events = Recorder<AuthenticationEvent.Kind>()

    private func makeAuthenticator(
        saved: Credentials? = nil, configure: (inout Authenticator.Configuration) -> Void = { _ in }
    ) throws -> Authenticator {
        let events = self.events
        return try Authenticator(tokenURL: URL(string: "http://h/token")!) { configuration in
            configuration.transport = server.transport
            configuration.store = InMemoryCredentialStore(saved)
            configuration.onEvent = { events.append($0.kind) }
            configure(&configuration)
        }
    }

    private func makeClient(_ authenticator: Authenticator, baseURL: String = "http://h/") throws -> Client {
        try Client(baseURL: URL(string: baseURL)!, transport: server.transport) { $0.interceptors = [authenticator] }
    }

    private func order(_ client: Client) -> Promise<Order> {
        client.send(Request<Order>(.get, "orders/1"))
    }

    private func authenticationError<T>(_ promise: Promise<T>, file: StaticString = #filePath, line: UInt = #line) async -> AuthenticationError? {
        do {
            _ = try await promise.value
            XCTFail("the promise fulfilled", file: file, line: line)
        } catch let error as AuthenticationError {
            return error
        } catch {
            XCTFail("expected an AuthenticationError, got \(error)", file: file, line: line)
        }
        return nil
    }

    // MARK: Login and the token response

    func test_logIn_postsThePasswordGrant_andReadsRFC6749Fields() async throws {
        let authenticator = try makeAuthenticator { $0.scope = "orders reviews" }
        let credentials = try await authenticator.logIn(username: "me@example.com", password: "p&ss word").value

        XCTAssertEqual(credentials.accessToken, "access-1")
        XCTAssertEqual(credentials.refreshToken, "refresh-1")
        XCTAssertEqual(credentials.expiresAt?.timeIntervalSinceNow ?? 0, 3600, accuracy: 60)
        let body = server.state.withLock { $0.tokenBodies.first }
        XCTAssertEqual(body, "grant_type=password&username=me%40example.com&password=p%26ss+word&scope=orders+reviews")
        XCTAssertEqual(server.state.withLock { $0.tokenRequests.first?.value(forHTTPHeaderField: "Content-Type") }, "application/x-www-form-urlencoded")
        XCTAssertEqual(events.events, [.loggedIn])
    }

    func test_clientAuthentication_basic_formEncodesTheIDAndSecretFirst() async throws {
        let authenticator = try makeAuthenticator { $0.clientAuthentication = .basic(clientID: "my app", secret: "s3:cr&t") }
        _ = try await authenticator.logIn(username: "u", password: "p").value
        let header = server.state.withLock { $0.tokenRequests.first?.value(forHTTPHeaderField: "Authorization") }
        XCTAssertEqual(header, "Basic " + Data("my+app:s3%3Acr%26t".utf8).base64EncodedString())
    }

    func test_clientAuthentication_formBody_addsTheFields() async throws {
        let authenticator = try makeAuthenticator { $0.clientAuthentication = .formBody(clientID: "app", secret: "s") }
        _ = try await authenticator.logIn(username: "u", password: "p").value
        XCTAssertEqual(server.state.withLock { $0.tokenBodies.first }, "grant_type=password&username=u&password=p&client_id=app&client_secret=s")
        XCTAssertNil(server.state.withLock { $0.tokenRequests.first?.value(forHTTPHeaderField: "Authorization") })
    }

    func test_logIn_refusesATokenTypeOtherThanBearer() async throws {
        server.state.withLock { $0.tokenResponse = { _ in .success(.json(#"{"access_token": "a", "token_type": "mac"}"#)) } }
        let error = await authenticationError(try makeAuthenticator().logIn(username: "u", password: "p"))
        XCTAssertEqual(error?.kind, .loginFailed)
        XCTAssertTrue(error?.description.contains("\"mac\" token") ?? false, error?.description ?? "")
    }

    func test_logIn_readsAnExpiresInSentAsAString_andCustomFieldNames() async throws {
        server.state.withLock { $0.tokenResponse = { _ in .success(.json(#"{"token": "t", "rt": "r", "ttl": "120"}"#)) } }
        let authenticator = try makeAuthenticator { $0.fields = TokenResponseFields(accessToken: "token", refreshToken: "rt", expiresIn: "ttl") }
        let credentials = try await authenticator.logIn(username: "u", password: "p").value
        XCTAssertEqual(credentials.accessToken, "t")
        XCTAssertEqual(credentials.refreshToken, "r")
        XCTAssertEqual(credentials.expiresAt?.timeIntervalSinceNow ?? 0, 120, accuracy: 30)
    }

    func test_logIn_failure_neverShowsThePassword() async throws {
        server.state.withLock { $0.tokenResponse = { _ in .success(.json(#"{"error": "invalid_grant"}"#, statusCode: 400)) } }
        let error = await authenticationError(try makeAuthenticator().logIn(username: "u", password: "hunter2"))
        XCTAssertEqual(error?.errorCode, "invalid_grant")
        XCTAssertEqual(error?.description, "Logging in failed: the token endpoint answered 400 Bad Request (invalid_grant): the username or password is wrong.")
    }

    func test_credentials_neverPrintTheirTokens() {
        let credentials = Credentials(accessToken: "secret-access", refreshToken: "secret-refresh", expiresAt: Date(timeIntervalSince1970: 0))
        var dumped = ""
        dump(credentials, to: &dumped)
        for text in ["\(credentials)", String(reflecting: credentials), dumped] {
            XCTAssertFalse(text.contains("secret"), text)
        }
        XCTAssertEqual("\(credentials)", "Credentials(access token, refresh token, expires 1970-01-01T00:00:00Z)")
    }

    // MARK: Refreshing

    func test_anExpiredToken_isRefreshed_andTheRequestReplayed_withTheRotatedRefreshToken() async throws {
        let authenticator = try makeAuthenticator()
        _ = try await authenticator.logIn(username: "u", password: "p").value
        server.expireAll()

        _ = try await order(try makeClient(authenticator)).value

        XCTAssertEqual(server.state.withLock { $0.tokenBodies.last }, "grant_type=refresh_token&refresh_token=refresh-1")
        XCTAssertEqual(authenticator.credentials?.refreshToken, "refresh-2")
        XCTAssertEqual(events.events, [.loggedIn, .refreshed])
    }

    func test_refresh_onDemand_isSingleFlight() async throws {
        // The token endpoint answers only when the test says, so both calls find the first in flight.
        let transport = ManualTransport()
        let authenticator = try makeAuthenticator(saved: Credentials(accessToken: "old", refreshToken: "r")) { $0.transport = transport }
        let first = authenticator.refresh()
        let second = authenticator.refresh()
        XCTAssertEqual(transport.count, 1)

        transport.exchange(0).fulfill(.json(#"{"access_token": "new", "refresh_token": "r2"}"#))

        let renewed = try await first.value
        let again = try await second.value
        XCTAssertEqual(renewed, Credentials(accessToken: "new", refreshToken: "r2"))
        XCTAssertEqual(again, renewed)
        XCTAssertEqual(authenticator.credentials, renewed)
    }

    func test_refresh_withoutCredentials_failsAtOnce() async throws {
        let error = await authenticationError(try makeAuthenticator().refresh())
        XCTAssertEqual(error?.kind, .sessionExpired)
        XCTAssertEqual(server.tokenRequestCount, 0)
    }

    func test_aRefreshAnswerWithoutARefreshToken_keepsTheOldOne() async throws {
        let authenticator = try makeAuthenticator(saved: Credentials(accessToken: "old", refreshToken: "keep-me"))
        server.state.withLock { state in
            state.tokenResponse = { number in .success(.json("{\"access_token\": \"new-\(number)\"}")) }
            state.valid = ["new-1"]
        }

        _ = try await order(try makeClient(authenticator)).value

        XCTAssertEqual(authenticator.credentials?.accessToken, "new-1")
        XCTAssertEqual(authenticator.credentials?.refreshToken, "keep-me")
    }

    func test_theseRefusals_areNotRefreshed() async throws {
        let refusals: [HTTPResponse] = [
            HTTPResponse(statusCode: 401, headers: ["WWW-Authenticate": "Bearer error=\"insufficient_scope\""]),
            HTTPResponse(statusCode: 401, headers: ["WWW-Authenticate": "Bearer"]),
            .json(#"{"message": "unauthorized"}"#, statusCode: 401),
            .json(#"{"message": "invalid_token"}"#, statusCode: 403),
            HTTPResponse(statusCode: 403, headers: ["WWW-Authenticate": "Bearer error=\"invalid_token\""]),
        ]
        let authenticator = try makeAuthenticator(saved: Credentials(accessToken: "old", refreshToken: "r"))
        for refusal in refusals {
            server.state.withLock { $0.refusal = refusal }
            let error = await awaitError(order(try makeClient(authenticator)))
            XCTAssertEqual((error as? APIError)?.statusCode, refusal.statusCode, "\(refusal)")
        }
        XCTAssertEqual(server.tokenRequestCount, 0)
    }

    /// Nor is it the bare 401: with no credentials to send, the caller is told to log in first.
    func test_aRequestSentWithoutAToken_isNotRefreshed() async throws {
        let authenticator = try makeAuthenticator()
        let error = await awaitError(order(try makeClient(authenticator)))
        XCTAssertEqual((error as? AuthenticationError)?.kind, .notLoggedIn, "\(String(describing: error))")
        XCTAssertEqual(((error as? AuthenticationError)?.underlyingError as? APIError)?.statusCode, 401)
        XCTAssertEqual(server.tokenRequestCount, 0)
    }

    /// The server's 401 stays on the error, challenge and all; what is printed of it is redacted.
    func test_aRequestSentWithoutAToken_failsKeepingTheServers401AndItsChallenge() async throws {
        server.state.withLock {
            $0.refusal = HTTPResponse(statusCode: 401, headers: ["WWW-Authenticate": "Bearer realm=\"orders\"", "Set-Cookie": "session=secret-cookie"])
        }
        let authenticator = try makeAuthenticator()

        let failure = await awaitError(order(try makeClient(authenticator)))
        let error = try XCTUnwrap(failure as? AuthenticationError, "\(String(describing: failure))")

        XCTAssertEqual(error.kind, .notLoggedIn)
        XCTAssertEqual(error.response?.statusCode, 401)
        XCTAssertEqual(error.response?.value(forHeader: "WWW-Authenticate"), "Bearer realm=\"orders\"")
        XCTAssertFalse("\(error)".contains("secret-cookie"), "\(error)")
        XCTAssertFalse("\(error.response.map { "\($0)" } ?? "")".contains("secret-cookie"))
    }

    func test_theBodyMessage_isTakenForAnExpiredToken_unlessConfiguredOut() async throws {
        server.state.withLock { $0.refusal = .json(#"{"message": "invalid_token"}"#, statusCode: 401) }
        let byDefault = try makeAuthenticator(saved: Credentials(accessToken: "old", refreshToken: "r"))
        _ = try await order(try makeClient(byDefault)).value
        XCTAssertEqual(server.tokenRequestCount, 1)

        let challengesOnly = try makeAuthenticator(saved: Credentials(accessToken: "old", refreshToken: "r")) { $0.expiredToken = .bearerChallenge }
        let error = await awaitError(order(try makeClient(challengesOnly)))
        XCTAssertEqual((error as? APIError)?.statusCode, 401)
        XCTAssertEqual(server.tokenRequestCount, 1)
    }

    func test_aServerRefusingEveryNewToken_stopsAtTheRefreshLimit() async throws {
        server.state.withLock { $0.acceptsNewTokens = false }
        let authenticator = try makeAuthenticator(saved: Credentials(accessToken: "old", refreshToken: "r")) { $0.refreshLimit = 3 }
        let error = await authenticationError(order(try makeClient(authenticator)))
        XCTAssertEqual(error?.kind, .tooManyRefreshes)
        XCTAssertEqual(server.tokenRequestCount, 3, "one refresh per replay, then the limit")
        XCTAssertNotNil(authenticator.credentials, "the credentials are kept: the window will pass")
    }

    func test_aRefreshThatFailsInTransit_keepsTheCredentials_andEndsNoSession() async throws {
        server.state.withLock { $0.tokenResponse = { _ in .failure(URLError(.timedOut)) } }
        let authenticator = try makeAuthenticator(saved: Credentials(accessToken: "old", refreshToken: "r"))
        let error = await authenticationError(order(try makeClient(authenticator)))
        XCTAssertEqual(error?.kind, .refreshFailed)
        XCTAssertEqual(authenticator.credentials?.refreshToken, "r")
        XCTAssertEqual(events.events, [])
        XCTAssertTrue(error?.description.hasPrefix("Refreshing the access token failed: POST http://h/token failed before a response arrived") ?? false,
                      error?.description ?? "")
    }

    func test_aRefusedRefreshToken_endsTheSession_withoutShowingIt() async throws {
        server.state.withLock { $0.tokenResponse = { _ in .success(.json(#"{"error": "invalid_grant"}"#, statusCode: 400)) } }
        let authenticator = try makeAuthenticator(saved: Credentials(accessToken: "old", refreshToken: "secret-refresh"))
        let client = try makeClient(authenticator)
        let error = await authenticationError(order(client))
        XCTAssertEqual(error?.kind, .sessionExpired)
        XCTAssertEqual(error?.description, "The session has ended: the token endpoint answered 400 Bad Request (invalid_grant); log in again.")
        XCTAssertNil(authenticator.credentials)
        XCTAssertEqual(events.events, [.sessionEnded])

        // Later requests fail the same way, without a refresh, until a login.
        let later = await authenticationError(order(client))
        XCTAssertEqual(later?.kind, .sessionExpired)
        XCTAssertEqual(server.tokenRequestCount, 1)
    }

    func test_anExpiredTokenWithoutARefreshToken_endsTheSession() async throws {
        let authenticator = try makeAuthenticator(saved: Credentials(accessToken: "old"))
        let error = await authenticationError(order(try makeClient(authenticator)))
        XCTAssertEqual(error?.kind, .sessionExpired)
        XCTAssertEqual(server.tokenRequestCount, 0)
        XCTAssertEqual(events.events, [.sessionEnded])
    }

    func test_aRedirectingTokenEndpoint_isNotFollowed() async throws {
        server.state.withLock { $0.tokenResponse = { _ in .success(HTTPResponse(statusCode: 307, headers: ["Location": "http://evil.example/token"])) } }
        let error = await authenticationError(try makeAuthenticator().logIn(username: "u", password: "p"))
        XCTAssertEqual(error?.response?.statusCode, 307)
        XCTAssertEqual(server.tokenRequestCount, 1)
    }

    // MARK: Origins

    func test_theToken_goesOnlyToTheAPIsOrigin() async throws {
        let authenticator = try makeAuthenticator(saved: Credentials(accessToken: "t"))
        let context = AttemptContext(request: RequestSummary(method: .get, url: nil, path: "x"), attempt: 1)
        for (url, expected) in [
            ("http://h/orders", "Bearer t"), ("HTTP://H:80/orders", "Bearer t"),
            ("https://h/orders", nil), ("http://h:8080/orders", nil), ("http://other/orders", nil),
        ] {
            let adapted = try await authenticator.adapt(URLRequest(url: URL(string: url)!), context: context)
            XCTAssertEqual(adapted.value(forHTTPHeaderField: "Authorization"), expected, url)
        }
    }

    func test_apiURL_movesTheOrigin() async throws {
        let authenticator = try makeAuthenticator(saved: Credentials(accessToken: "t")) { $0.apiURL = URL(string: "https://api.example.com/v1/") }
        let context = AttemptContext(request: RequestSummary(method: .get, url: nil, path: "x"), attempt: 1)
        let api = try await authenticator.adapt(URLRequest(url: URL(string: "https://api.example.com/v1/orders")!), context: context)
        let tokenHost = try await authenticator.adapt(URLRequest(url: URL(string: "http://h/orders")!), context: context)
        XCTAssertEqual(api.value(forHTTPHeaderField: "Authorization"), "Bearer t")
        XCTAssertNil(tokenHost.value(forHTTPHeaderField: "Authorization"))
    }

    // MARK: Refreshing ahead of expiry

    func test_aTokenCloseToExpiry_isRenewedBeforeTheRequest() async throws {
        let saved = Credentials(accessToken: "old", refreshToken: "r", expiresAt: Date(timeIntervalSinceNow: -5))
        let authenticator = try makeAuthenticator(saved: saved)
        _ = try await order(try makeClient(authenticator)).value
        XCTAssertEqual(server.tokenRequestCount, 1)
        XCTAssertEqual(authenticator.credentials?.accessToken, "access-1")
    }

    func test_anEarlyRefreshThatFails_sendsTheStillValidToken() async throws {
        server.state.withLock { state in
            state.valid = ["still-valid"]
            state.tokenResponse = { _ in .failure(URLError(.notConnectedToInternet)) }
        }
        let start = Date()
        let clock = Locked(start)
        // Ten minutes to live and a 30-second margin: due 30 seconds before expiry.
        let saved = Credentials(accessToken: "still-valid", refreshToken: "r", expiresAt: start + 600)
        var configuration = Authenticator.Configuration(tokenURL: URL(string: "http://h/token")!)
        configuration.transport = server.transport
        configuration.store = InMemoryCredentialStore(saved)
        let authenticator = try Authenticator(configuration: configuration, clock: { clock.value })
        let client = try makeClient(authenticator)

        _ = try await order(client).value
        XCTAssertEqual(server.tokenRequestCount, 0, "not due yet")

        clock.withLock { $0 = start + 580 }
        _ = try await order(client).value
        XCTAssertEqual(server.tokenRequestCount, 1, "due: renewed first, and the failure fell back on the valid token")
        XCTAssertEqual(authenticator.credentials?.accessToken, "still-valid")

        clock.withLock { $0 = start + 601 }
        let expired = await authenticationError(order(client))
        XCTAssertEqual(expired?.kind, .refreshFailed, "past expiry there is nothing to fall back on")
    }

    func test_refreshMoment_isNeverEarlierThanHalfTheRemainingLifetime() {
        let now = Date()
        let short = Credentials(accessToken: "a", refreshToken: "r", expiresAt: now + 4)
        let long = Credentials(accessToken: "a", refreshToken: "r", expiresAt: now + 3600)
        XCTAssertEqual(AuthenticationSession.refreshMoment(for: short, margin: .seconds(30), now: now), now + 2)
        XCTAssertEqual(AuthenticationSession.refreshMoment(for: long, margin: .seconds(30), now: now), now + 3570)
        XCTAssertNil(AuthenticationSession.refreshMoment(for: long, margin: nil, now: now))
        XCTAssertNil(AuthenticationSession.refreshMoment(for: Credentials(accessToken: "a", expiresAt: now + 60), margin: .seconds(30), now: now))
    }

    // MARK: The store

    func test_aFailingStore_isReported_andTheCredentialsStayInMemory() async throws {
        struct BrokenStore: CredentialStore {
            func load() throws -> Credentials? { nil }
            func save(_ credentials: Credentials) throws { throw CredentialStoreError(.unwritable, url: nil, reason: "is full") }
            func clear() throws {}
        }
        let authenticator = try makeAuthenticator { $0.store = BrokenStore() }
        _ = try await authenticator.logIn(username: "u", password: "p").value
        XCTAssertEqual(events.events, [.storeFailed, .loggedIn])
        XCTAssertEqual(authenticator.credentials?.accessToken, "access-1")
    }

    func test_anUnreadableStore_isReported_andCountsAsLoggedOut() throws {
        struct CorruptStore: CredentialStore {
            func load() throws -> Credentials? { throw CredentialStoreError(.corrupt, url: nil, reason: "is corrupt") }
            func save(_ credentials: Credentials) throws {}
            func clear() throws {}
        }
        let authenticator = try makeAuthenticator { $0.store = CorruptStore() }
        XCTAssertNil(authenticator.credentials)
        XCTAssertEqual(events.events, [.storeFailed])
    }
}
