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

/// The authenticator's promises that only show over time or in the store: what waits for a
/// refresh, what the store holds after one, and which failures end a session. The token endpoint
/// is held by hand (`ManualTransport`) wherever a test needs a refresh in flight.
final class AuthenticatorGuaranteeTests: XCTestCase {
    private let server = FakeAuthServer()
    private let events = Recorder<AuthenticationEvent.Kind>()

    private func makeAuthenticator(
        store: InMemoryCredentialStore, tokens: (any Transport)? = nil, clock: (@Sendable () -> Date)? = nil,
        configure: (inout Authenticator.Configuration) -> Void = { _ in }
    ) throws -> Authenticator {
        var configuration = Authenticator.Configuration(tokenURL: URL(string: "http://h/token")!)
        configuration.transport = tokens ?? server.transport
        configuration.store = store
        let events = self.events
        configuration.onEvent = { events.append($0.kind) }
        configure(&configuration)
        return try Authenticator(configuration: configuration, clock: clock ?? { Date() })
    }

    private func makeClient(_ authenticator: Authenticator) throws -> Client {
        try Client(baseURL: URL(string: "http://h/")!, transport: server.transport) { $0.interceptors = [authenticator] }
    }

    private func order(_ client: Client) -> Promise<Order> {
        client.send(Request<Order>(.get, "orders/1"))
    }

    /// A token endpoint held by hand that fulfils `sent` on its first request.
    private func heldTokenEndpoint(_ sent: XCTestExpectation) -> ManualTransport {
        ManualTransport { count in if count == 1 { sent.fulfill() } }
    }

    private func authenticationError<T>(_ promise: Promise<T>, file: StaticString = #filePath, line: UInt = #line) async -> AuthenticationError? {
        let error = await awaitError(promise)
        guard let error = error as? AuthenticationError else {
            XCTFail("expected an AuthenticationError, got \(error.map { "\($0)" } ?? "a value")", file: file, line: line)
            return nil
        }
        return error
    }

    // MARK: The store follows the session

    func test_afterARefresh_theStoreHoldsTheRotatedRefreshToken() async throws {
        let store = InMemoryCredentialStore(Credentials(accessToken: "old", refreshToken: "refresh-0"))
        let authenticator = try makeAuthenticator(store: store)

        _ = try await order(try makeClient(authenticator)).value

        XCTAssertEqual(store.load()?.refreshToken, "refresh-1")
        XCTAssertEqual(store.load()?.accessToken, "access-1")
        XCTAssertEqual(events.events, [.refreshed])
    }

    /// The store is written before the refresh settles, so an app killed right after a replayed
    /// request went out still holds the token the server rotated to.
    /// The waiters of a refresh (requests to replay) are released only once the rotated token is
    /// saved: an app killed right after a replayed request went out still holds the token the
    /// server rotated to. Checked from inside the store's `save`, where the waiter must still wait.
    func test_theRotatedToken_isSavedBeforeAnyWaiterIsReleased() async throws {
        final class CheckingStore: CredentialStore {
            let waiter = Locked<Promise<Credentials>?>(nil)
            let seenAtSave = Locked<[String]>([])
            func load() throws -> Credentials? { Credentials(accessToken: "old", refreshToken: "refresh-0") }
            func save(_ credentials: Credentials) throws {
                let released = waiter.value.map { !$0.isPending } ?? false
                seenAtSave.withLock { $0.append("\(credentials.refreshToken ?? ""): waiter \(released ? "released" : "waiting")") }
            }
            func clear() throws {}
        }
        let sent = expectation(description: "the refresh is sent")
        let tokens = heldTokenEndpoint(sent)
        let store = CheckingStore()
        let authenticator = try Authenticator(tokenURL: URL(string: "http://h/token")!) {
            $0.transport = tokens
            $0.store = store
        }
        let waiter = authenticator.refresh()
        store.waiter.withLock { $0 = waiter }
        await fulfillment(of: [sent], timeout: 30)

        tokens.exchange(0).fulfill(.json(#"{"access_token": "new", "refresh_token": "r2"}"#))
        _ = try await waiter.value

        XCTAssertEqual(store.seenAtSave.value, ["r2: waiter waiting"])
    }

    func test_aRefusedRefreshToken_clearsTheStore_tooNotOnlyMemory() async throws {
        server.state.withLock { $0.tokenResponse = { _ in .success(.json(#"{"error": "invalid_grant"}"#, statusCode: 400)) } }
        let store = InMemoryCredentialStore(Credentials(accessToken: "old", refreshToken: "r"))
        let authenticator = try makeAuthenticator(store: store)

        let error = await authenticationError(order(try makeClient(authenticator)))

        XCTAssertEqual(error?.kind, .sessionExpired)
        XCTAssertNil(authenticator.credentials)
        XCTAssertNil(store.load())
    }

    func test_logOut_clearsTheStore_andLaterRequestsGoWithoutAToken() async throws {
        server.state.withLock { $0.valid = ["t"] }
        let store = InMemoryCredentialStore(Credentials(accessToken: "t", refreshToken: "r"))
        let authenticator = try makeAuthenticator(store: store)
        let client = try makeClient(authenticator)
        _ = try await order(client).value

        authenticator.logOut()
        _ = await awaitError(order(client))

        XCTAssertNil(store.load())
        XCTAssertEqual(server.apiAuthorizations, ["Bearer t", ""])
        XCTAssertEqual(events.events, [.loggedOut])
    }

    func test_aFailedLogin_leavesTheEarlierSessionAsItWas() async throws {
        let store = InMemoryCredentialStore()
        let authenticator = try makeAuthenticator(store: store)
        let first = try await authenticator.logIn(username: "u", password: "p").value
        server.state.withLock { $0.tokenResponse = { _ in .success(.json(#"{"error": "invalid_grant"}"#, statusCode: 400)) } }

        let error = await authenticationError(authenticator.logIn(username: "u", password: "wrong"))

        XCTAssertEqual(error?.kind, .loginFailed)
        XCTAssertEqual(authenticator.credentials, first)
        XCTAssertEqual(store.load(), first)
        XCTAssertEqual(events.events, [.loggedIn])
    }

    // MARK: Which failures end the session

    /// Only a 400 or 401 from the token endpoint means the refresh token is dead; a server error,
    /// a rate limit or a forbidden response is the token server having a bad minute.
    func test_aTokenEndpointAnsweringOtherThan400Or401_keepsTheSession() async throws {
        for status in [500, 502, 503, 429, 403] {
            let server = FakeAuthServer()
            server.state.withLock { $0.tokenResponse = { _ in .success(.json(#"{"error": "temporarily_unavailable"}"#, statusCode: status)) } }
            let saved = Credentials(accessToken: "old", refreshToken: "r")
            let store = InMemoryCredentialStore(saved)
            let events = Recorder<AuthenticationEvent.Kind>()
            let authenticator = try Authenticator(tokenURL: URL(string: "http://h/token")!) {
                $0.transport = server.transport
                $0.store = store
                $0.onEvent = { events.append($0.kind) }
            }
            let client = try Client(baseURL: URL(string: "http://h/")!, transport: server.transport) { $0.interceptors = [authenticator] }

            let error = await authenticationError(order(client))

            XCTAssertEqual(error?.kind, .refreshFailed, "\(status)")
            XCTAssertEqual(error?.response?.statusCode, status)
            XCTAssertEqual(authenticator.credentials, saved, "\(status)")
            XCTAssertEqual(store.load(), saved, "\(status)")
            XCTAssertEqual(events.events, [], "\(status)")
        }
    }

    // MARK: Waiting for a refresh

    func test_aRequestStartedWhileARefreshRuns_waitsForIt_insteadOfSendingTheOldToken() async throws {
        let sent = expectation(description: "the refresh is sent")
        let tokens = heldTokenEndpoint(sent)
        let authenticator = try makeAuthenticator(store: InMemoryCredentialStore(Credentials(accessToken: "old", refreshToken: "r")), tokens: tokens)
        let client = try makeClient(authenticator)
        let first = order(client)
        await fulfillment(of: [sent], timeout: 30)

        let second = order(client)
        server.state.withLock { $0.valid = ["new"] }
        tokens.exchange(0).fulfill(.json(#"{"access_token": "new", "refresh_token": "r2"}"#))
        _ = try await first.value
        _ = try await second.value

        // The first went with the old token and was replayed; the second only ever with the new.
        XCTAssertEqual(server.apiAuthorizations.sorted(), ["Bearer new", "Bearer new", "Bearer old"])
        XCTAssertEqual(tokens.count, 1)
    }

    /// A due refresh that the endpoint refuses ends the session: the old access token, though not
    /// yet expired, belongs to it and is not sent.
    func test_aProactiveRefreshRefusedWithInvalidGrant_doesNotFallBackOnTheOldToken() async throws {
        server.state.withLock { state in
            state.valid = ["still-valid"]
            state.tokenResponse = { _ in .success(.json(#"{"error": "invalid_grant"}"#, statusCode: 400)) }
        }
        let start = Date()
        let clock = Locked(start)
        let store = InMemoryCredentialStore(Credentials(accessToken: "still-valid", refreshToken: "r", expiresAt: start + 600))
        let authenticator = try makeAuthenticator(store: store, clock: { clock.value })
        XCTAssertNotNil(authenticator.credentials)
        // Ten minutes to live, due thirty seconds before expiry: due now, still valid.
        clock.withLock { $0 = start + 580 }

        let error = await authenticationError(order(try makeClient(authenticator)))

        XCTAssertEqual(error?.kind, .sessionExpired)
        XCTAssertEqual(server.apiAuthorizations, [])
        XCTAssertNil(store.load())
        XCTAssertEqual(events.events, [.sessionEnded])
    }

    /// Requests finding their token due while a refresh is already in flight (started by an
    /// expired token, on demand, or by another due request) all join it, from many threads at once.
    func test_manyRequestsFindingTheirTokenDue_whileARefreshIsInFlight_joinIt() async throws {
        let sent = expectation(description: "the refresh is sent")
        let tokens = heldTokenEndpoint(sent)
        let start = Date()
        let clock = Locked(start)
        let store = InMemoryCredentialStore(Credentials(accessToken: "old", refreshToken: "r", expiresAt: start + 600))
        let authenticator = try makeAuthenticator(store: store, tokens: tokens, clock: { clock.value })
        let client = try makeClient(authenticator)
        XCTAssertNotNil(authenticator.credentials)
        clock.withLock { $0 = start + 590 }  // due, and still valid
        let onDemand = authenticator.refresh()
        await fulfillment(of: [sent], timeout: 30)

        let requests = Locked<[Promise<Order>]>([])
        let refreshes = Locked<[Promise<Credentials>]>([])
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            if index % 10 == 0 {
                let refresh = authenticator.refresh()
                refreshes.withLock { $0.append(refresh) }
            } else {
                let request = client.send(Request<Order>(.get, "orders/1"))
                requests.withLock { $0.append(request) }
            }
        }
        server.state.withLock { $0.valid = ["new"] }
        tokens.exchange(0).fulfill(.json(#"{"access_token": "new", "refresh_token": "r2", "expires_in": 3600}"#))

        _ = try await onDemand.value
        for refresh in refreshes.value { _ = try await refresh.value }
        for request in requests.value { _ = try await request.value }
        XCTAssertEqual(tokens.count, 1)
        // Every request waited: none went with the old token (it would have been refused and replayed).
        XCTAssertEqual(Set(server.apiAuthorizations), ["Bearer new"])
        XCTAssertEqual(server.apiAuthorizations.count, 180)
    }

    /// A waiter that is cancelled leaves; the refresh goes on to its end even when that waiter was
    /// its only one, so a rotated refresh token is never lost. The waiter is a `refresh()` share,
    /// whose cancel reaches the shared refresh before `cancel()` returns: a request's would reach
    /// it from the call's own thread, at a moment the test cannot see.
    func test_cancellingTheOnlyWaiter_leavesTheRefreshRunning() async throws {
        let sent = expectation(description: "the refresh is sent")
        let tokens = heldTokenEndpoint(sent)
        let store = InMemoryCredentialStore(Credentials(accessToken: "old", refreshToken: "r"))
        let refreshed = expectation(description: "the refresh ends")
        let authenticator = try makeAuthenticator(store: store, tokens: tokens, configure: {
            $0.onEvent = { if $0.kind == .refreshed { refreshed.fulfill() } }
        })
        let waiting = authenticator.refresh()
        await fulfillment(of: [sent], timeout: 30)

        waiting.cancel()
        let error = await awaitError(waiting)
        XCTAssertTrue(error?.isCancellation ?? false, "\(String(describing: error))")
        guard tokens.exchange(0).cancellations.value == 0 else { return XCTFail("the refresh was cut off with its last waiter") }

        tokens.exchange(0).fulfill(.json(#"{"access_token": "new", "refresh_token": "r2"}"#))
        await fulfillment(of: [refreshed], timeout: 30)

        XCTAssertEqual(store.load()?.refreshToken, "r2")
        XCTAssertEqual(authenticator.credentials?.accessToken, "new")
    }

    func test_aRefreshThatNeverAnswers_failsTheRequestAfterTheRefreshTimeout() async throws {
        let sent = expectation(description: "the refresh is sent")
        let tokens = heldTokenEndpoint(sent)
        let saved = Credentials(accessToken: "old", refreshToken: "r")
        let authenticator = try makeAuthenticator(store: InMemoryCredentialStore(saved), tokens: tokens, configure: {
            $0.refreshTimeout = .milliseconds(300)
        })

        let request = order(try makeClient(authenticator))
        await fulfillment(of: [sent], timeout: 30)
        let settled = expectation(description: "the request settles")
        request.then { _ in settled.fulfill() }
        // A hang guard only: the refresh timeout is what ends the wait.
        await fulfillment(of: [settled], timeout: 30)
        guard !request.isPending else {
            request.cancel()
            return XCTFail("the request still waits for the refresh")
        }

        let error = await authenticationError(request)
        XCTAssertEqual(error?.kind, .refreshFailed)
        XCTAssertEqual(authenticator.credentials, saved, "a refresh that timed out keeps the session")
    }
}
