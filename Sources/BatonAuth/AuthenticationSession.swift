import Foundation
import BatonPromise

/// An ``Authenticator``'s state, behind its lock: the credentials, the refresh in flight, and
/// the bookkeeping that makes refreshes single-flight and bounded. Every change is a method here,
/// so the rules read in one place; none of them calls out of the authenticator.
struct AuthenticationSession: Sendable {
    /// Whether the store was read (once, on first need).
    var loaded = false
    /// The credentials requests are sent with.
    private(set) var credentials: Credentials?
    /// When to renew ahead of expiry; `nil` for never.
    private(set) var refreshAt: Date?
    /// The refresh in flight: everything that needs a token waits for it.
    private(set) var refresh: SharedPromise<Credentials>?
    /// Counts logins, logouts and ended sessions, so that a refresh started in one session
    /// cannot change the credentials of the next.
    private(set) var number = 0
    /// Why the session ended, until the next login: what a request that meets the dead token
    /// fails with.
    private(set) var endedBy: AuthenticationError?
    /// When recent refreshes started, for the limit.
    private var refreshStarts: [ContinuousClock.Instant] = []

    /// A refresh to start once the lock is released.
    struct Launch: Sendable {
        var promise: Promise<Credentials>
        var shared: SharedPromise<Credentials>
        var renewal: Renewal
        /// The grant of the credentials renewed, which the new ones keep.
        var grant: Credentials.Grant?
        var session: Int
    }

    /// How credentials are renewed: with their refresh token (RFC 6749 §6), or, for a token of the
    /// client credentials grant, by asking for a new one (§4.4.3 issues no refresh token).
    enum Renewal: Sendable {
        case refreshToken(String)
        case clientCredentials

        /// How `credentials` renew, `nil` when they cannot.
        init?(of credentials: Credentials) {
            if let refreshToken = credentials.refreshToken {
                self = .refreshToken(refreshToken)
            } else if credentials.grant == .clientCredentials {
                self = .clientCredentials
            } else {
                return nil
            }
        }
    }

    /// The credentials of a new session (login, or read from the store).
    mutating func begin(with credentials: Credentials?, margin: Duration?, now: Date) {
        number += 1
        self.credentials = credentials
        refreshAt = credentials.flatMap { Self.refreshMoment(for: $0, margin: margin, now: now) }
        refresh = nil
        endedBy = nil
        loaded = true
    }

    /// No credentials any more: the user logged out (`error` nil) or the session ended.
    mutating func end(because error: AuthenticationError?) {
        number += 1
        credentials = nil
        refreshAt = nil
        refresh = nil
        endedBy = error
        loaded = true
    }

    /// How a refresh was asked for: joined, when one is in flight already, or started.
    enum Refreshing: Sendable {
        case joined(SharedPromise<Credentials>)
        case started(Launch)
    }

    /// Joins the refresh in flight, or starts one of the current credentials: fails when there is
    /// nothing to refresh with (ending the session) or when the limit is reached. Whoever asks, and
    /// however many at once, there is one refresh in flight at most.
    mutating func beginRefresh(limit: Int, window: Duration, now: ContinuousClock.Instant) -> Result<Refreshing, AuthenticationError> {
        if let refresh { return .success(.joined(refresh)) }
        guard let credentials, let renewal = Renewal(of: credentials) else {
            let error = AuthenticationError(.sessionExpired, detail: "the access token expired and there is no refresh token to renew it")
            end(because: error)
            return .failure(error)
        }
        refreshStarts.removeAll { now - $0 >= window }
        guard refreshStarts.count < max(1, limit) else {
            return .failure(AuthenticationError(.tooManyRefreshes, detail: "it was already refreshed \(refreshStarts.count) times within \(window) and the server still refuses it"))
        }
        refreshStarts.append(now)
        let promise = Promise<Credentials>(upstream: nil)
        let shared = SharedPromise(promise)
        refresh = shared
        return .success(.started(Launch(promise: promise, shared: shared, renewal: renewal, grant: credentials.grant, session: number)))
    }

    /// A refresh of session `session` ended. Returns whether its outcome still applies (the
    /// session is the same), after applying it: new credentials, or the end of the session.
    mutating func finishRefresh(
        _ shared: SharedPromise<Credentials>, session: Int, result: Result<Credentials, AuthenticationError>,
        margin: Duration?, now: Date
    ) -> Bool {
        if refresh === shared { refresh = nil }
        guard session == number else { return false }
        switch result {
        case .success(let renewed):
            credentials = renewed
            refreshAt = Self.refreshMoment(for: renewed, margin: margin, now: now)
        case .failure(let error) where error.kind == .sessionExpired:
            end(because: error)
        case .failure:
            break
        }
        return true
    }

    /// When to renew `credentials` ahead of expiry: `margin` before it, but no earlier than half
    /// the lifetime left now, so a token that lives shorter than the margin is not renewed on
    /// every request. `nil` without an expiry or a margin.
    static func refreshMoment(for credentials: Credentials, margin: Duration?, now: Date) -> Date? {
        guard let margin, let expiresAt = credentials.expiresAt, Renewal(of: credentials) != nil else { return nil }
        let remaining = expiresAt.timeIntervalSince(now)
        guard remaining > 0 else { return now }
        return expiresAt - min(margin.timeInterval, remaining / 2)
    }
}
