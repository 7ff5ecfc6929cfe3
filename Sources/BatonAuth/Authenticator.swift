import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonSupport
import BatonPromise
import BatonClient
import BatonWire

/// OAuth 2 Bearer authentication for a `Client`: logs in, sends the access token, renews it
/// when it expires, and replays the requests that met the expired one.
///
/// ```swift
/// let auth = try Authenticator(tokenURL: URL(string: "https://auth.example.com/token")!) {
///     $0.authorizationURL = URL(string: "https://auth.example.com/authorize")
///     $0.clientAuthentication = .formBody(clientID: "ios-app")   // an app has an id, no secret
///     $0.apiURL = URL(string: "https://api.example.com/")        // the only origin that gets the token
///     $0.store = FileCredentialStore(url: support.appending(path: "credentials.json"))
///     $0.onEvent = { event in if event.kind == .sessionEnded { showLogin() } }
/// }
/// let client = try Client(baseURL: "https://api.example.com/") { $0.interceptors = [auth] }
///
/// let flow = try auth.beginAuthorization(redirectURI: URL(string: "com.example.app:/signed-in")!)
/// let callback = try await openInBrowser(flow.url)   // ASWebAuthenticationSession on Apple platforms
/// auth.logIn(completing: flow, redirectedTo: callback)
///     .success { _ in client.send(Orders.find(name: "山田")) }
///     .failure { error, _ in print(error) }
/// ```
///
/// A session begins with one of the grants, and the guarantees below hold whichever began it.
/// Users sign in through the browser with ``beginAuthorization(redirectURI:scope:additionalParameters:)``
/// and ``logIn(completing:redirectedTo:)`` (the authorization code with PKCE); a service signs in
/// as itself with ``logInAsClient()`` (client credentials, renewed by asking for a new token
/// through the same single flight); a TV or a command-line tool shows a code with
/// ``beginDeviceAuthorization(scope:)`` and waits with ``logIn(completing:)`` (the device grant);
/// ``adopt(_:)`` takes tokens obtained elsewhere; and ``logIn(username:password:)`` remains for
/// servers that offer only the legacy password grant. ``discover(issuer:configure:)`` finds the
/// endpoints in the server's metadata, and ``logOut()`` ends the session here at once and, with a
/// ``Configuration/revocationURL``, revokes the token at the server.
///
/// Registered once in `Client.Configuration.interceptors`, it both adapts and retries:
/// - **Sending.** Every request to the API's origin (scheme, host and port of
///   ``Configuration/apiURL``, by default the token URL's) gets `Authorization: Bearer <token>`;
///   a request to any other origin never does, and the client strips the header from a redirect
///   that leaves the origin.
/// - **Single flight.** However many requests meet an expired token at once, one refresh is
///   sent. Requests that start while it runs wait for it rather than send the dead token; then
///   all go, or are replayed, with the new token. A request refused with an older token than the
///   current one is replayed at once, without another refresh. A waiting request that is
///   cancelled stops waiting; the refresh goes on for the others, and is never cut off halfway,
///   since a server that rotated the refresh token would otherwise leave the session unusable.
/// - **Rotation.** The new refresh token replaces the old one, in memory and in the
///   ``Configuration/store``, before any request is replayed; a response without one keeps the
///   old one (RFC 6749 §6).
/// - **Failure.** When the token endpoint refuses the refresh token, every waiting request fails
///   at once with one ``AuthenticationError`` of kind ``AuthenticationError/Kind/sessionExpired``
///   carrying the endpoint's response, the credentials are cleared, and
///   ``AuthenticationEvent/Kind/sessionEnded`` is sent once. When the refresh fails otherwise (no
///   network, a timeout), the waiting requests fail with ``AuthenticationError/Kind/refreshFailed``
///   and the credentials are kept, so a dropped connection does not log the user out. Nothing is
///   replayed after a failed refresh, and no request waits longer than
///   ``Configuration/refreshTimeout`` for one.
/// - **No loops.** A request is replayed at most once per refresh, and at most
///   ``Configuration/refreshLimit`` refreshes start within ``Configuration/refreshWindow``.
/// - **Ahead of expiry.** A token with a known expiry is renewed
///   ``Configuration/proactiveRefreshMargin`` before it, under the same single-flight rules;
///   should that early refresh fail, requests go with the old token while it lasts.
///
/// Which responses mean "expired" is ``Configuration/expiredToken``: a `401` challenging with
/// `error="invalid_token"` (RFC 6750 §3.1) or carrying `{"message": "invalid_token"}`. A `401`
/// to a request sent without a token, `insufficient_scope` and `403` are never refreshed. Replays
/// are counted as `RetryCause.expiredCredentials`, so they do not use up the
/// `RetryPolicy`'s retries.
///
/// An authenticator may serve several clients; only those requests that go to the API's origin
/// carry its token. It is safe to use from any thread.
public final class Authenticator: RequestInterceptor, PromptAdapter, PromptRetrier {
    /// What the authenticator was set up with.
    public let configuration: Configuration
    /// The token endpoint, and the device authorization and revocation endpoints when set.
    let tokenEndpoint: FormEndpoint
    let deviceEndpoint: FormEndpoint?
    let revocationEndpoint: FormEndpoint?
    /// The only origin the token is sent to.
    let apiOrigin: Origin?
    let session = Lock(AuthenticationSession())
    /// Held while calling the store, so that its calls never overlap and the last write wins.
    let storeAccess = Lock(())
    /// The wall clock expiry dates are read against; tests move it.
    let now: @Sendable () -> Date
    /// How long the device grant really waits when the server asks for a pause: the pause itself,
    /// except in tests, which move a clock instead.
    let pollPause: @Sendable (Duration) -> Duration

    /// Creates an authenticator for the token endpoint at `tokenURL`, letting `configure` change any
    /// other setting.
    ///
    /// - Throws: `ConfigurationError` when the token URL cannot work.
    public convenience init(tokenURL: URL, configure: (inout Configuration) -> Void = { _ in }) throws(ConfigurationError) {
        var configuration = Configuration(tokenURL: tokenURL)
        configure(&configuration)
        try self.init(configuration: configuration)
    }

    /// Creates an authenticator. Saved credentials are read from the store when first needed.
    ///
    /// - Throws: `ConfigurationError` when the token URL, or another endpoint's URL that is set,
    ///   cannot work (no scheme, a scheme other than http or https, no host).
    public convenience init(configuration: Configuration) throws(ConfigurationError) {
        try self.init(configuration: configuration, clock: { Date() })
    }

    /// An authenticator reading the time from `clock`.
    init(
        configuration: Configuration, clock: @escaping @Sendable () -> Date,
        pollPause: @escaping @Sendable (Duration) -> Duration = { $0 }
    ) throws(ConfigurationError) {
        self.configuration = configuration
        now = clock
        self.pollPause = pollPause
        apiOrigin = Origin(configuration.apiURL ?? configuration.tokenURL)
        tokenEndpoint = try FormEndpoint(url: configuration.tokenURL, configuration: configuration)
        deviceEndpoint = try configuration.deviceAuthorizationURL.map { url throws(ConfigurationError) in
            try FormEndpoint(url: url, configuration: configuration)
        }
        revocationEndpoint = try configuration.revocationURL.map { url throws(ConfigurationError) in
            try FormEndpoint(url: url, configuration: configuration)
        }
    }

    // MARK: - The session

    /// The credentials requests are sent with, `nil` when logged out.
    public var credentials: Credentials? {
        loadIfNeeded()
        return session.withLock(annotating: self) { $0.credentials }
    }

    /// Renews the access token now, or joins the renewal in flight, and returns the new credentials.
    /// Requests need not call this: expired tokens are renewed by themselves.
    public func refresh() -> Promise<Credentials> {
        loadIfNeeded()
        let plan: Plan = session.withLock(annotating: self) { session in
            guard session.credentials != nil else {
                return .fail(AuthenticationError(.sessionExpired, detail: "there are no credentials to refresh"), ended: false)
            }
            return beginRefresh(&session)
        }
        switch carryOut(plan) {
        case .token: preconditionFailure("a refresh plan waits or fails")
        case .wait(let shared, _): return shared.share()
        case .fail(let error): return Promise(error: error)
        }
    }

    // MARK: - Adapting and retrying

    /// Adds `Authorization: Bearer <token>` when `request` goes to the API's origin and there
    /// are credentials, first waiting for a refresh in flight or due: see
    /// `RequestAdapter.adapt(_:context:)`.
    ///
    /// - Throws: ``AuthenticationError`` when the session has ended (until the next login), or when
    ///   the refresh it waited for failed with no unexpired token to fall back on.
    public func adapt(_ request: URLRequest, context: AttemptContext) async throws -> URLRequest {
        try await adaptPromptly(request, context: context).value
    }

    /// Replays a request refused for an expired token once the token is renewed (or at once if it
    /// already was), and fails it with the ``AuthenticationError`` when renewing failed: see
    /// `RequestRetrier.retry(_:failedWith:context:)`. Any other failure is left to the retriers.
    public func retry(_ request: URLRequest, failedWith error: any Error, context: AttemptContext) async -> RetryDecision {
        (try? await retryPromptly(request, failedWith: error, context: context).value) ?? .doNotRetry
    }

    /// The planning of ``adapt(_:context:)``, answered at once unless a refresh must be waited for.
    package func adaptPromptly(_ request: URLRequest, context: AttemptContext) -> Prompt<URLRequest> {
        guard let origin = Origin(request.url), origin == apiOrigin else { return .now(.success(request)) }
        loadIfNeeded()
        let now = self.now()
        let plan: Plan = session.withLock(annotating: self) { session in
            if let refresh = session.refresh { return .wait(refresh, fallback: nil, launch: nil) }
            guard let credentials = session.credentials else {
                // After the session ended, requests fail as the ones that found out did, until a
                // login; after a logout they go without a token.
                return session.endedBy.map { .fail($0, ended: false) } ?? .token(nil)
            }
            guard let refreshAt = session.refreshAt, now >= refreshAt else { return .token(credentials.accessToken) }
            let unexpired = credentials.expiresAt.map { $0 > now } ?? true
            switch beginRefresh(&session) {
            case .wait(let shared, _, let launch): return .wait(shared, fallback: unexpired ? credentials.accessToken : nil, launch: launch)
            case .fail(let error, let ended) where ended || !unexpired: return .fail(error, ended: ended)
            default: return .token(credentials.accessToken)
            }
        }
        switch carryOut(plan) {
        case .token(let token):
            return .now(.success(Self.request(request, bearing: token)))
        case .wait(let shared, let fallback):
            return .later(shared.share().then { [self] result in
                switch result {
                case .success(let renewed):
                    let token = session.withLock(annotating: self) { $0.credentials?.accessToken } ?? renewed.accessToken
                    return Self.request(request, bearing: token)
                case .failure(let error as AuthenticationError) where error.kind != .sessionExpired && fallback != nil:
                    return Self.request(request, bearing: fallback)
                case .failure(let error):
                    throw error
                }
            })
        case .fail(let error):
            return .now(.failure(error))
        }
    }

    /// The decision of ``retry(_:failedWith:context:)``, answered at once unless a refresh must be
    /// waited for.
    package func retryPromptly(_ request: URLRequest, failedWith error: any Error, context: AttemptContext) -> Prompt<RetryDecision> {
        if let refused = refusalForWantOfLogin(request, failedWith: error, context: context) {
            return .now(.success(.fail(with: refused)))
        }
        guard let response = (error as? APIError)?.response ?? context.response,
              configuration.expiredToken.isExpiredToken(response),
              let sent = Self.bearerToken(of: request) else { return .now(.success(.doNotRetry)) }
        loadIfNeeded()
        let plan: Plan = session.withLock(annotating: self) { session in
            guard let credentials = session.credentials else {
                return session.endedBy.map { .fail($0, ended: false) } ?? .token(nil)
            }
            if credentials.accessToken != sent { return .token(credentials.accessToken) }
            return beginRefresh(&session)
        }
        switch carryOut(plan) {
        case .token(nil):
            return .now(.success(.doNotRetry))
        case .token:
            return .now(.success(.retry(after: .zero, cause: .expiredCredentials)))
        case .wait(let shared, _):
            return .later(shared.share().then { result in
                switch result {
                case .success: return .retry(after: .zero, cause: .expiredCredentials)
                case .failure(let error as AuthenticationError): return .fail(with: error)
                case .failure(let error): throw error
                }
            })
        case .fail(let error):
            return .now(.success(.fail(with: error)))
        }
    }

    // MARK: - Refreshing

    /// What a request does about its token, decided under the lock and carried out after it.
    private enum Plan: Sendable {
        /// Go with this token, or without one.
        case token(String?)
        /// Wait for the refresh; on a failure other than an ended session, go with `fallback` if
        /// there is one. `launch` is a refresh this request started, to send once unlocked.
        case wait(SharedPromise<Credentials>, fallback: String?, launch: AuthenticationSession.Launch?)
        /// Fail; `ended` says this request ended the session, to be announced once unlocked.
        case fail(AuthenticationError, ended: Bool)
    }

    /// A plan once its side effects are done.
    private enum Outcome {
        case token(String?)
        case wait(SharedPromise<Credentials>, fallback: String?)
        case fail(AuthenticationError)
    }

    /// Joins the refresh in flight or starts one of `session`'s credentials, or says why not.
    private func beginRefresh(_ session: inout AuthenticationSession) -> Plan {
        switch session.beginRefresh(limit: configuration.refreshLimit, window: configuration.refreshWindow, now: .now) {
        case .success(.joined(let shared)): return .wait(shared, fallback: nil, launch: nil)
        case .success(.started(let launch)): return .wait(launch.shared, fallback: nil, launch: launch)
        case .failure(let error): return .fail(error, ended: error.kind == .sessionExpired)
        }
    }

    /// Does what `plan` leaves for after the lock: sends a refresh it started, announces a session
    /// it ended.
    private func carryOut(_ plan: Plan) -> Outcome {
        switch plan {
        case .token(let token):
            return .token(token)
        case .wait(let shared, let fallback, let launch):
            if let launch { sendRefresh(launch) }
            return .wait(shared, fallback: fallback)
        case .fail(let error, let ended):
            if ended {
                persist()
                emit(AuthenticationEvent(.sessionEnded, error: error))
            }
            return .fail(error)
        }
    }
}
