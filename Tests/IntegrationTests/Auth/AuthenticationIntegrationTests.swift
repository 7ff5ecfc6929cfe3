@testable import BatonSupport
@testable import BatonPromise
@testable import BatonClient
@testable import BatonAuth
import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// The ``Authenticator`` against DemoServer's real `POST /tokens`: login, the refresh storm, a
/// refused refresh token, tokens expiring again during the replay, redirects, the file store, and
/// cancelled waiters.
final class AuthenticationIntegrationTests: IntegrationTestCase {
    /// An authenticator for `server`'s demo dialect (`token` field), with events recorded.
    private func makeAuthenticator(
        of server: DemoServer? = nil, configure: (inout Authenticator.Configuration) -> Void = { _ in }
    ) throws -> (Authenticator, Recorder<AuthenticationEvent.Kind>) {
        let events = Recorder<AuthenticationEvent.Kind>()
        let target = server ?? self.server!
        let authenticator = try Authenticator(tokenURL: target.baseURL.appending(path: "tokens")) { configuration in
            configuration.fields = TokenResponseFields(accessToken: "token")
            configuration.onEvent = { events.append($0.kind) }
            configure(&configuration)
        }
        return (authenticator, events)
    }

    /// A client of `server` authenticated by `authenticator` alone (no default token).
    private func makeClient(with authenticator: Authenticator, of server: DemoServer? = nil) throws -> Client {
        try makeClient(of: server, authorized: false) { $0.interceptors = [authenticator] }
    }

    // MARK: Login

    func test_logIn_returnsCredentials_andRequestsCarryTheToken() async throws {
        let (authenticator, events) = try makeAuthenticator()
        let credentials = try await authenticator.logIn(username: "demo", password: "demo").value
        XCTAssertNotNil(credentials.refreshToken)
        XCTAssertNotNil(credentials.expiresAt)

        let echo = try await makeClient(with: authenticator).send(Demo.echo()).value

        XCTAssertEqual(echo.headers["authorization"], "Bearer \(credentials.accessToken)")
        XCTAssertEqual(events.events, [.loggedIn])
        let counted = try await stats().logins
        XCTAssertEqual(counted, 2, "the test case's own login, and this one")
    }

    func test_logIn_withAWrongPassword_failsWithTheServersAnswer() async throws {
        let (authenticator, _) = try makeAuthenticator()
        do {
            _ = try await authenticator.logIn(username: "demo", password: "hunter2-not-it").value
            XCTFail("the login succeeded")
        } catch let error as AuthenticationError {
            XCTAssertEqual(error.kind, .loginFailed)
            XCTAssertEqual(error.response?.statusCode, 400)
            XCTAssertEqual(error.errorCode, "invalid_grant")
            XCTAssertFalse(error.description.contains("hunter2"), error.description)
        } catch {
            XCTFail("expected an AuthenticationError, got \(error)")
        }
        XCTAssertNil(authenticator.credentials)
    }

    func test_logOut_clearsTheCredentials_andRequestsGoWithoutAToken() async throws {
        let (authenticator, events) = try makeAuthenticator()
        _ = try await authenticator.logIn(username: "demo", password: "demo").value
        authenticator.logOut()

        let echo = try await makeClient(with: authenticator).send(Demo.echo()).value

        XCTAssertNil(echo.headers["authorization"])
        XCTAssertNil(authenticator.credentials)
        XCTAssertEqual(events.events, [.loggedIn, .loggedOut])
    }

    // MARK: The refresh storm

    /// 1,000 requests meet an expired token at once: one refresh, and every request succeeds.
    /// Twenty rounds, each an app that logged in and whose token then expired; five under
    /// ThreadSanitizer, where a round of 1,000 requests takes half a minute on a busy machine.
    func test_refreshStorm_sendsOneRefresh_andEveryRequestSucceeds() async throws {
        // Tokens that outlive any round, so that only `expireAccessTokens` ends them: a round
        // slower than a token's life (the fixtures' 60 s, which ThreadSanitizer on a busy machine
        // can take) would rightly refresh once more.
        let server = try DemoServer.start(configuration: .init(tokenLifetime: 3600, tls: Self.overTLS ? .loopback : nil))
        defer { server.stop() }
        let rounds = ThreadSanitizer.annotations == nil ? 20 : 5
        for round in 1...rounds {
            // Only the 401s refresh here, not the proactive margin.
            let (authenticator, _) = try makeAuthenticator(of: server) { $0.proactiveRefreshMargin = nil }
            _ = try await authenticator.logIn(username: "demo", password: "demo").value
            let client = try makeClient(with: authenticator, of: server)
            server.expireAccessTokens()
            let results = await sendOrders(1000, through: client)
            let failures = results.filter { if case .failure = $0 { return true } else { return false } }
            XCTAssertEqual(failures.count, 0, "round \(round): \(failures.first.map { "\($0)" } ?? "")")
            let counted = try await stats(of: server).tokenRefreshes
            XCTAssertEqual(counted, round, "round \(round)")
        }
    }

    // MARK: A refused refresh token

    func test_refusedRefreshToken_failsEveryRequestPromptly_replaysNone_andEndsTheSessionOnce() async throws {
        // A long refresh timeout: a request that waited for it instead of failing would show.
        let (authenticator, events) = try makeAuthenticator { $0.refreshTimeout = .seconds(60) }
        let credentials = try await authenticator.logIn(username: "demo", password: "demo").value
        // Someone else uses the refresh token first: the server rotates it, so ours is refused.
        _ = try await Client(baseURL: server.baseURL) { $0.retryPolicy = nil }
            .send(Request<Tokens>(.post, "tokens", body: .form([("grant_type", "refresh_token"), ("refresh_token", credentials.refreshToken!)])))
            .value
        server.expireAccessTokens()

        let monitor = EventRecorder()
        let client = try makeClient(authorized: false) { configuration in
            configuration.interceptors = [authenticator]
            configuration.monitors = [monitor]
        }
        let started = ContinuousClock.now

        let results = await sendOrders(1000, through: client)

        XCTAssertLessThan(ContinuousClock.now - started, .seconds(20), "no request waited for the refresh timeout")
        for result in results {
            guard case .failure(let error as AuthenticationError) = result else {
                return XCTFail("expected an AuthenticationError, got \(result)")
            }
            XCTAssertEqual(error.kind, .sessionExpired)
            XCTAssertEqual(error.errorCode, "invalid_grant")
        }
        let stats = try await stats()
        XCTAssertEqual(stats.refreshTokensRejected, 1, "one refresh was sent")
        XCTAssertFalse(monitor.events.contains { $0.kind == .retrying }, "no request was replayed")
        XCTAssertLessThanOrEqual(stats.requests["GET /orders/:id"] ?? 0, 1000, "no request was sent twice")
        XCTAssertNil(authenticator.credentials)
        XCTAssertEqual(events.events, [.loggedIn, .sessionEnded])
    }

    // MARK: Expiring again during the replay

    func test_tokensExpiringAgainDuringTheReplay_refreshAgain_andEveryRequestSucceeds() async throws {
        let server = self.server!
        let refreshes = Counter()
        let (authenticator, _) = try makeAuthenticator { configuration in
            // Runs after the first refresh is applied and before any request is replayed.
            let earlier = configuration.onEvent
            configuration.onEvent = { event in
                earlier?(event)
                if event.kind == .refreshed, refreshes.increment() == 1 { server.expireAccessTokens() }
            }
        }
        _ = try await authenticator.logIn(username: "demo", password: "demo").value
        server.expireAccessTokens()
        let monitor = EventRecorder()
        let client = try makeClient(of: server, authorized: false) { configuration in
            configuration.interceptors = [authenticator]
            configuration.monitors = [monitor]
        }

        let results = await sendOrders(50, through: client)

        XCTAssertTrue(results.allSatisfy { if case .success = $0 { return true } else { return false } }, "\(results)")
        let counted = try await stats().tokenRefreshes
        XCTAssertEqual(counted, 2)
        let causes = Set(monitor.events.compactMap(\.retryCause))
        XCTAssertEqual(causes, [.expiredCredentials], "replays are counted as expired credentials, not transient failures")
    }

    // MARK: Origins

    func test_theToken_isStrippedFromARedirectToAnotherPort_andKeptOnTheSameOrigin() async throws {
        let serverB = try Self.fixture("B").server
        let (authenticator, _) = try makeAuthenticator()
        let credentials = try await authenticator.logIn(username: "demo", password: "demo").value
        let client = try makeClient(with: authenticator)

        let crossOrigin = try await client.send(Demo.redirect(status: 302, to: serverB.baseURL.absoluteString + "/_demo/echo")).value
        let sameOrigin = try await client.send(Demo.redirect(status: 302, to: "/_demo/echo")).value

        XCTAssertEqual(crossOrigin.headers["host"], "127.0.0.1:\(serverB.port)")
        XCTAssertNil(crossOrigin.headers["authorization"])
        XCTAssertEqual(sameOrigin.headers["authorization"], "Bearer \(credentials.accessToken)")
    }

    func test_aClientOfAnotherOrigin_neverReceivesTheToken() async throws {
        let serverB = try Self.fixture("B").server
        let (authenticator, _) = try makeAuthenticator()
        _ = try await authenticator.logIn(username: "demo", password: "demo").value

        let echo = try await makeClient(with: authenticator, of: serverB).send(Demo.echo()).value

        XCTAssertNil(echo.headers["authorization"])
    }

    // MARK: The file store

    func test_theFileStore_isReadBackByAFreshAuthenticator() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "baton-auth-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "credentials.json")
        let (first, _) = try makeAuthenticator { $0.store = FileCredentialStore(url: file) }
        let credentials = try await first.logIn(username: "demo", password: "demo").value

        let (second, _) = try makeAuthenticator { $0.store = FileCredentialStore(url: file) }
        let order = try await makeClient(with: second).send(Request<Order>(.get, "orders/1")).value

        XCTAssertEqual(second.credentials, credentials)
        XCTAssertEqual(order, Fixtures.order(1))
        let counted = try await stats().logins
        XCTAssertEqual(counted, 2, "the test case's own login and the first authenticator's")
    }

    // MARK: Cancelled waiters

    func test_cancelledWaiters_doNotCancelTheRefreshForTheOthers() async throws {
        let held = HeldTransport()
        let (authenticator, _) = try makeAuthenticator { $0.transport = held }
        held.passes = true
        _ = try await authenticator.logIn(username: "demo", password: "demo").value
        held.passes = false
        server.expireAccessTokens()
        let client = try makeClient(with: authenticator)

        let promises = (0..<1000).map { client.send(Request<Order>(.get, "orders/\($0 % 8 + 1)")) }
        await fulfillment(of: [held.holding], timeout: 30)
        promises[0].cancel()
        held.release()

        do {
            _ = try await promises[0].value
            XCTFail("the cancelled call succeeded")
        } catch {
            XCTAssertTrue((error as? APIError)?.isCancelled ?? (error is CancellationError), "\(error)")
        }
        for promise in promises.dropFirst() {
            _ = try await promise.value
        }
        let counted = try await stats().tokenRefreshes
        XCTAssertEqual(counted, 1)
    }

    // MARK: An RFC 6749 server

    func test_anRFC6749Server_basicClientAuthentication_accessTokenFields_andChallengesOnly() async throws {
        var settings = DemoServer.Configuration(idleTimeout: 5)
        settings.tokenStyle = .rfc6749(clientID: "baton app", clientSecret: "s3cr3t:&")
        let strict = try DemoServer.start(configuration: settings)
        defer { strict.stop() }
        let events = Recorder<AuthenticationEvent.Kind>()
        let authenticator = try Authenticator(tokenURL: strict.baseURL.appending(path: "tokens")) { configuration in
            configuration.clientAuthentication = .basic(clientID: "baton app", secret: "s3cr3t:&")
            configuration.expiredToken = .bearerChallenge
            configuration.onEvent = { events.append($0.kind) }
        }
        _ = try await authenticator.logIn(username: "demo", password: "demo").value
        strict.expireAccessTokens()
        let client = try makeClient(of: strict, authorized: false) { $0.interceptors = [authenticator] }

        let results = await sendOrders(20, through: client)

        XCTAssertTrue(results.allSatisfy { if case .success = $0 { return true } else { return false } }, "\(results)")
        XCTAssertEqual(events.events, [.loggedIn, .refreshed])

        let wrongSecret = try Authenticator(tokenURL: strict.baseURL.appending(path: "tokens")) {
            $0.clientAuthentication = .basic(clientID: "baton app", secret: "wrong")
        }
        do {
            _ = try await wrongSecret.logIn(username: "demo", password: "demo").value
            XCTFail("the login succeeded with a wrong client secret")
        } catch let error as AuthenticationError {
            XCTAssertEqual(error.kind, .loginFailed)
            // FoundationNetworking drops the body of a `Basic` challenge, so only the status is checked.
            XCTAssertEqual(error.response?.statusCode, 401)
        }
    }

    // MARK: Refreshing ahead of expiry

    func test_aTokenPastItsRefreshMoment_isRenewedBeforeTheRequestIsSent() async throws {
        let tokens = try await login(on: server)
        // Saved credentials whose known expiry has passed: the first request renews them first.
        let saved = Credentials(accessToken: tokens.token, refreshToken: tokens.refreshToken, expiresAt: Date(timeIntervalSinceNow: -1))
        let (authenticator, events) = try makeAuthenticator { $0.store = InMemoryCredentialStore(saved) }
        server.expireAccessTokens()
        serverLog.clear()

        _ = try await makeClient(with: authenticator).send(Request<Order>(.get, "orders/1")).value

        XCTAssertEqual(events.events, [.refreshed])
        XCTAssertFalse(serverLog.all.contains { $0.contains("/orders/1") && $0.contains(" 401 ") }, "\(serverLog.all)")
    }

    func test_proactiveRefreshTurnedOff_waitsForTheServersRefusal() async throws {
        let tokens = try await login(on: server)
        let saved = Credentials(accessToken: tokens.token, refreshToken: tokens.refreshToken, expiresAt: Date(timeIntervalSinceNow: -1))
        let (authenticator, events) = try makeAuthenticator {
            $0.store = InMemoryCredentialStore(saved)
            $0.proactiveRefreshMargin = nil
        }
        server.expireAccessTokens()
        serverLog.clear()

        _ = try await makeClient(with: authenticator).send(Request<Order>(.get, "orders/1")).value

        XCTAssertEqual(events.events, [.refreshed])
        XCTAssertEqual(serverLog.all.filter { $0.contains("/orders/1") }.count, 2, "refused, then replayed: \(serverLog.all)")
    }
}

/// A real transport (Baton's own) that holds every request while `passes` is false, until
/// `release()`; `holding` is fulfilled when the first request is held.
final class HeldTransport: Transport {
    private let inner = HTTP1Transport()
    private let state = Locked<(passes: Bool, held: [@Sendable () -> Void], released: Bool)>((false, [], false))
    let holding = XCTestExpectation(description: "a request is held")

    var passes: Bool {
        get { state.withLock { $0.passes } }
        set { state.withLock { $0.passes = newValue } }
    }

    func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
        Promise { _, fulfill, reject, _ in
            let go: @Sendable () -> Void = { [inner] in
                inner.send(request, body: body, options: options).then { result in
                    switch result {
                    case .success(let response): fulfill(response)
                    case .failure(let error): reject(error)
                    }
                }
            }
            let now: Bool = state.withLock { state in
                if state.passes || state.released { return true }
                state.held.append(go)
                return false
            }
            if now { go() } else { holding.fulfill() }
        }
    }

    func release() {
        let held = state.withLock { state in
            state.released = true
            defer { state.held = [] }
            return state.held
        }
        for go in held { go() }
    }
}
