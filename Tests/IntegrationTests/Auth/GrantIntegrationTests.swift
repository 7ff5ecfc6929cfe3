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

/// Every way to sign in, against DemoServer's authorization server: the authorization code with
/// PKCE (found by discovery), client credentials, the device grant, adopted credentials, and
/// revocation. Each ends in the same session: 1,000 requests meeting its expired token send one
/// renewal.
final class GrantIntegrationTests: IntegrationTestCase {
    private let redirect = URL(string: "baton-test:/signed-in")!

    /// A server whose tokens outlive any test (only `expireAccessTokens` and the manual time end
    /// them), and whose clock is `time`.
    private func startServer(time: ManualTime = ManualTime(), log: (@Sendable (String) -> Void)? = nil) throws -> DemoServer {
        var configuration = DemoServer.Configuration(tokenLifetime: 3600, log: log)
        configuration.tokenClock = { time.instant }
        return try DemoServer.start(configuration: configuration)
    }

    /// The demo dialect's settings, with the proactive refresh off so that only `401`s renew.
    private func demoSettings(_ configuration: inout Authenticator.Configuration) {
        configuration.fields = TokenResponseFields(accessToken: "token")
        configuration.proactiveRefreshMargin = nil
    }

    private func discover(on server: DemoServer, clientID: String = "demo-app") async throws -> Authenticator {
        try await Authenticator.discover(issuer: server.baseURL) { configuration in
            self.demoSettings(&configuration)
            configuration.clientAuthentication = .formBody(clientID: clientID)
        }.value
    }

    private func client(of server: DemoServer, with authenticator: Authenticator) throws -> Client {
        try makeClient(of: server, authorized: false) { $0.interceptors = [authenticator] }
    }

    private func authenticationError<T>(_ promise: Promise<T>, file: StaticString = #filePath, line: UInt = #line) async -> AuthenticationError? {
        do {
            _ = try await promise.value
            XCTFail("the promise fulfilled", file: file, line: line)
        } catch {
            XCTAssertTrue(error is AuthenticationError, "\(error)", file: file, line: line)
            return error as? AuthenticationError
        }
        return nil
    }

    // MARK: The authorization code grant, by discovery

    func test_theCodeFlow_foundByDiscovery_signsIn_refreshesOnceForAThousand_rotates_andRevokesOnLogOut() async throws {
        let server = try startServer()
        defer { server.stop() }
        let authenticator = try await discover(on: server)
        XCTAssertEqual(authenticator.configuration.tokenURL, server.baseURL.appending(path: "tokens"))
        XCTAssertEqual(authenticator.configuration.revocationURL, server.baseURL.appending(path: "revoke"))

        let flow = try authenticator.beginAuthorization(redirectURI: redirect)
        let back = try await openInBrowser(flow.url, on: server)
        let credentials = try await authenticator.logIn(completing: flow, redirectedTo: back).value
        XCTAssertNotNil(credentials.refreshToken)
        var stats = try await self.stats(of: server)
        XCTAssertEqual(stats.codeExchanges, 1)

        let client = try client(of: server, with: authenticator)
        await assertAThousandRequestsSucceed_afterTheTokensExpire(through: client, of: server)
        stats = try await self.stats(of: server)
        XCTAssertEqual(stats.tokenRefreshes, 1)
        let rotated = try XCTUnwrap(authenticator.credentials?.refreshToken)
        XCTAssertNotEqual(rotated, credentials.refreshToken)

        try await authenticator.logOut().value
        XCTAssertNil(authenticator.credentials)
        stats = try await self.stats(of: server)
        XCTAssertEqual(stats.tokensRevoked, 1)
        var reuse = Request<HTTPResponse>(.post, "tokens", body: .form([("grant_type", "refresh_token"), ("refresh_token", rotated)]))
        reuse.acceptableStatusCodes = 100..<600
        let refused = try await makeClient(of: server, authorized: false).send(reuse).value
        XCTAssertEqual(refused.statusCode, 400, "the revoked refresh token is refused")
    }

    func test_aRedirectWithAnotherState_isRefused_andTheRealOneStillWorks() async throws {
        let server = try startServer()
        defer { server.stop() }
        let authenticator = try await discover(on: server)
        let flow = try authenticator.beginAuthorization(redirectURI: redirect)
        let back = try await openInBrowser(flow.url, on: server)
        var forged = try XCTUnwrap(URLComponents(url: back, resolvingAgainstBaseURL: false))
        forged.percentEncodedQuery = forged.percentEncodedQuery?.replacingOccurrences(of: "state=", with: "state=x")

        let refused = await authenticationError(authenticator.logIn(completing: flow, redirectedTo: try XCTUnwrap(forged.url)))
        XCTAssertEqual(refused?.kind, .loginFailed)
        XCTAssertTrue(refused?.description.contains("state is not the one this flow sent") == true, "\(String(describing: refused))")
        var stats = try await self.stats(of: server)
        XCTAssertEqual(stats.requests["POST /tokens"] ?? 0, 0, "nothing was exchanged")
        XCTAssertNil(authenticator.credentials)

        _ = try await authenticator.logIn(completing: flow, redirectedTo: back).value
        stats = try await self.stats(of: server)
        XCTAssertEqual(stats.codeExchanges, 1)
    }

    func test_aCodeUsedTwice_isRefused_withASentenceThatShowsNoSecret() async throws {
        let server = try startServer()
        defer { server.stop() }
        let authenticator = try await discover(on: server)
        let flow = try authenticator.beginAuthorization(redirectURI: redirect)
        let back = try await openInBrowser(flow.url, on: server)
        let first = try await authenticator.logIn(completing: flow, redirectedTo: back).value

        let again = await authenticationError(authenticator.logIn(completing: flow, redirectedTo: back))
        XCTAssertEqual(again?.kind, .loginFailed)
        XCTAssertEqual(again?.errorCode, "invalid_grant")
        let code = try XCTUnwrap(RedirectParameters(query: URLComponents(url: back, resolvingAgainstBaseURL: false)?.percentEncodedQuery)["code"])
        let sentence = again.map { "\($0)" } ?? ""
        XCTAssertTrue(sentence.contains("the authorization code was refused"), sentence)
        for secret in [code, flow.proofKey.verifier, flow.state, first.accessToken] {
            XCTAssertFalse(sentence.contains(secret), sentence)
        }
        XCTAssertEqual(authenticator.credentials?.accessToken, first.accessToken, "a failed login leaves the session as it was")
    }

    func test_aDeniedAuthorization_isTheServersSentence() async throws {
        let server = try startServer()
        defer { server.stop() }
        let authenticator = try await discover(on: server)
        let flow = try authenticator.beginAuthorization(redirectURI: redirect, additionalParameters: ["demo_decision": "deny"])
        let back = try await openInBrowser(flow.url, on: server)
        let denied = await authenticationError(authenticator.logIn(completing: flow, redirectedTo: back))
        XCTAssertEqual(denied?.kind, .authorizationDenied)
        XCTAssertEqual(denied?.errorCode, "access_denied")
        XCTAssertTrue(denied?.description.contains("(\"The user declined\")") == true, "\(String(describing: denied))")
    }

    func test_discovery_ofAServerWithoutMetadata_failsWithASentence() async throws {
        let elsewhere = await authenticationError(Authenticator.discover(issuer: server.baseURL.appending(path: "tenant")))
        XCTAssertEqual(elsewhere?.kind, .discoveryFailed)
        XCTAssertTrue(elsewhere?.description.contains("answered 404") == true, "\(String(describing: elsewhere))")
    }

    // MARK: Client credentials

    private func serviceAuthenticator(of server: DemoServer, secret: String = "demo-secret", store: any CredentialStore = InMemoryCredentialStore()) throws -> Authenticator {
        try Authenticator(tokenURL: server.baseURL.appending(path: "tokens")) { configuration in
            demoSettings(&configuration)
            configuration.clientAuthentication = .basic(clientID: "demo-service", secret: secret)
            configuration.store = store
        }
    }

    func test_clientCredentials_haveNoRefreshToken_andAreAskedForAgainOnceForAThousandExpiredRequests() async throws {
        let server = try startServer()
        defer { server.stop() }
        let authenticator = try serviceAuthenticator(of: server)
        let credentials = try await authenticator.logInAsClient().value
        XCTAssertNil(credentials.refreshToken)

        await assertAThousandRequestsSucceed_afterTheTokensExpire(through: try client(of: server, with: authenticator), of: server)
        let stats = try await self.stats(of: server)
        XCTAssertEqual(stats.clientCredentialsGrants, 2, "the login, and one renewal for the thousand")
        XCTAssertEqual(stats.tokenRefreshes, 0)

        // A renewed token renews the same way.
        server.expireAccessTokens()
        _ = try await client(of: server, with: authenticator).send(Request<Order>(.get, "orders/1")).value
        let again = try await self.stats(of: server).clientCredentialsGrants
        XCTAssertEqual(again, 3)
    }

    func test_aServiceSessionReadBackFromItsStore_isRenewedTheSameWay() async throws {
        let server = try startServer()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appending(path: "baton-grants-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileCredentialStore(url: folder.appending(path: "credentials.json"))
        _ = try await serviceAuthenticator(of: server, store: store).logInAsClient().value

        let restarted = try serviceAuthenticator(of: server, store: store)
        server.expireAccessTokens()
        _ = try await client(of: server, with: restarted).send(Request<Order>(.get, "orders/1")).value
        let stats = try await self.stats(of: server)
        XCTAssertEqual(stats.clientCredentialsGrants, 2)
    }

    func test_aWrongClientSecret_isRefused_andNeverShown() async throws {
        let authenticator = try serviceAuthenticator(of: server, secret: "hunter2-wrong")
        let refused = await authenticationError(authenticator.logInAsClient())
        XCTAssertEqual(refused?.kind, .loginFailed)
        XCTAssertEqual(refused?.errorCode, "invalid_client")
        let sentence = refused.map { "\($0)" } ?? ""
        XCTAssertTrue(sentence.contains("check the authenticator's clientAuthentication"), sentence)
        XCTAssertFalse(sentence.contains("hunter2"), sentence)

        let noSecret = try Authenticator(tokenURL: server.baseURL.appending(path: "tokens")) { $0.clientAuthentication = .formBody(clientID: "demo-service") }
        let unconfigured = await authenticationError(noSecret.logInAsClient())
        XCTAssertEqual(unconfigured?.kind, .notConfigured)
    }

    // MARK: The device grant

    private func deviceAuthenticator(of server: DemoServer, time: ManualTime, script: PollScript) async throws -> Authenticator {
        let discovered = try await discover(on: server)
        return try Authenticator(configuration: discovered.configuration, clock: { time.date }, pollPause: { script.pause($0) })
    }

    /// Approves or denies `device` as the user would on the verification page.
    private func decide(_ device: DeviceAuthorization, _ decision: String, on server: DemoServer) async throws {
        _ = try await makeClient(of: server, authorized: false).send(
            Request<HTTPResponse>(.post, "device", body: .form([("user_code", device.userCode), ("decision", decision)]))
        ).value
    }

    func test_theDeviceGrant_pollsWhilePending_signsInOnceApproved_andRefreshesOnceForAThousand() async throws {
        let time = ManualTime()
        let server = try startServer(time: time)
        defer { server.stop() }
        let script = PollScript(time: time, holdAt: 2)
        let authenticator = try await deviceAuthenticator(of: server, time: time, script: script)
        let device = try await authenticator.beginDeviceAuthorization().value
        XCTAssertEqual(device.interval, .seconds(5))
        XCTAssertEqual(device.verificationURI, server.baseURL.appending(path: "device"))

        let signedIn = authenticator.logIn(completing: device)
        await fulfillment(of: [script.held], timeout: 30)
        try await decide(device, "approve", on: server)
        script.release()
        let credentials = try await signedIn.value
        XCTAssertNotNil(credentials.refreshToken)
        XCTAssertEqual(script.pauses.events, [.seconds(5), .seconds(5)])
        var stats = try await self.stats(of: server)
        XCTAssertEqual(stats.devicePolls, 2, "pending, then approved")

        await assertAThousandRequestsSucceed_afterTheTokensExpire(through: try client(of: server, with: authenticator), of: server)
        stats = try await self.stats(of: server)
        XCTAssertEqual(stats.tokenRefreshes, 1)
    }

    func test_pollingTooSoon_slowsDownBy5Seconds_andADeniedCodeFailsWithASentence() async throws {
        let time = ManualTime()
        let server = try startServer(time: time)
        defer { server.stop() }
        // The second pause lasts 1 s instead of 5: the server answers slow_down.
        let script = PollScript(time: time, holdAt: 3) { pause, requested in pause == 2 ? .seconds(1) : requested }
        let authenticator = try await deviceAuthenticator(of: server, time: time, script: script)
        let device = try await authenticator.beginDeviceAuthorization().value

        let signedIn = authenticator.logIn(completing: device)
        await fulfillment(of: [script.held], timeout: 30)
        try await decide(device, "deny", on: server)
        script.release()
        let denied = await authenticationError(signedIn)
        XCTAssertEqual(denied?.kind, .authorizationDenied)
        XCTAssertEqual(denied?.errorCode, "access_denied")
        XCTAssertEqual(script.pauses.events, [.seconds(5), .seconds(5), .seconds(10)], "slow_down adds 5 seconds")
        XCTAssertNil(authenticator.credentials)
        XCTAssertFalse("\(denied.map { "\($0)" } ?? "")".contains(device.deviceCode))
    }

    func test_anExpiredDeviceCode_failsAsExpired_whetherTheServerOrTheClockSaysSo() async throws {
        let time = ManualTime()
        let server = try startServer(time: time)
        defer { server.stop() }
        // The first pause outlasts the codes: the server answers expired_token.
        let late = PollScript(time: time) { _, _ in .seconds(600) }
        let authenticator = try await deviceAuthenticator(of: server, time: time, script: late)
        let device = try await authenticator.beginDeviceAuthorization().value
        let expired = await authenticationError(authenticator.logIn(completing: device))
        XCTAssertEqual(expired?.kind, .authorizationExpired)
        XCTAssertEqual(expired?.errorCode, "expired_token")

        // Polled once with 4 s to go: no poll is sent that would come after the codes expired.
        let nearlyLate = PollScript(time: time) { _, _ in .seconds(596) }
        let second = try await deviceAuthenticator(of: server, time: time, script: nearlyLate)
        let device2 = try await second.beginDeviceAuthorization().value
        let pollsBefore = try await self.stats(of: server).devicePolls
        let expiredHere = await authenticationError(second.logIn(completing: device2))
        XCTAssertEqual(expiredHere?.kind, .authorizationExpired)
        XCTAssertTrue(expiredHere?.description.contains("did not approve the code \(device2.userCode) before it expired") == true, "\(String(describing: expiredHere))")
        let pollsAfter = try await self.stats(of: server).devicePolls
        XCTAssertEqual(pollsAfter - pollsBefore, 1)
    }

    func test_cancellingWhilePolling_stopsThePolling_andSignsNobodyIn() async throws {
        let time = ManualTime()
        let polledAfterCancelling = expectation(description: "a poll after the cancellation")
        polledAfterCancelling.isInverted = true
        let cancelled = Locked(false)
        let server = try startServer(time: time) { line in
            if line.contains("/tokens"), cancelled.value { polledAfterCancelling.fulfill() }
        }
        defer { server.stop() }
        let script = PollScript(time: time, holdAt: 2)
        let events = Recorder<AuthenticationEvent.Kind>()
        let discovered = try await discover(on: server)
        var configuration = discovered.configuration
        configuration.onEvent = { events.append($0.kind) }
        let authenticator = try Authenticator(configuration: configuration, clock: { time.date }, pollPause: { script.pause($0) })
        let device = try await authenticator.beginDeviceAuthorization().value

        let signedIn = authenticator.logIn(completing: device)
        await fulfillment(of: [script.held], timeout: 30)
        cancelled.withLock { $0 = true }
        signedIn.cancel()
        try await decide(device, "approve", on: server)
        script.release()
        do {
            _ = try await signedIn.value
            XCTFail("the cancelled sign-in fulfilled")
        } catch {
            XCTAssertTrue(error.isCancellation, "\(error)")
        }
        await fulfillment(of: [polledAfterCancelling], timeout: 0.5)
        XCTAssertNil(authenticator.credentials)
        XCTAssertEqual(events.events, [])
    }

    // MARK: Adopted credentials

    func test_adoptedCredentials_areSent_andRefreshedOnceForAThousand() async throws {
        let server = try startServer()
        defer { server.stop() }
        let tokens = try await makeClient(of: server, authorized: false).send(Demo.login()).value
        let authenticator = try Authenticator(tokenURL: server.baseURL.appending(path: "tokens")) { demoSettings(&$0) }
        try authenticator.adopt(Credentials(accessToken: tokens.token, refreshToken: tokens.refreshToken))
        let client = try client(of: server, with: authenticator)
        let echo = try await client.send(Demo.echo()).value
        XCTAssertEqual(echo.headers["authorization"], "Bearer \(tokens.token)")

        await assertAThousandRequestsSucceed_afterTheTokensExpire(through: client, of: server)
        let stats = try await self.stats(of: server)
        XCTAssertEqual(stats.tokenRefreshes, 1)
        XCTAssertNotEqual(authenticator.credentials?.refreshToken, tokens.refreshToken, "rotated")

        XCTAssertThrowsError(try authenticator.adopt(Credentials(accessToken: "a\r\nX-Injected: 1"))) { error in
            XCTAssertEqual((error as? AuthenticationError)?.kind, .loginFailed)
        }
        XCTAssertNotEqual(authenticator.credentials?.accessToken, "a\r\nX-Injected: 1")
    }

    // MARK: Revocation

    func test_aRevocationThatFails_stillLogsOutAtOnce_andSaysSo() async throws {
        let authenticator = try Authenticator(tokenURL: server.baseURL.appending(path: "tokens")) { configuration in
            demoSettings(&configuration)
            configuration.revocationURL = server.baseURL.appending(path: "no-revocation-here")
        }
        _ = try await authenticator.logIn(username: "demo", password: "demo").value
        let revocation = authenticator.logOut()
        XCTAssertNil(authenticator.credentials, "logged out before the server answers")
        let failed = await authenticationError(revocation)
        XCTAssertEqual(failed?.kind, .revocationFailed)
        XCTAssertTrue(failed?.description.contains("the revocation endpoint answered 404") == true, "\(String(describing: failed))")
    }
}
