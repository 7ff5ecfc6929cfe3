import BatonPromise
import BatonClient

/// Logging out, and revoking the token at the server (RFC 7009).
extension Authenticator {
    /// Forgets the credentials, in memory and in the store, at once; then, when a
    /// ``Configuration/revocationURL`` is set, asks the server to revoke the refresh token (or the
    /// access token, without one), so that a copy of it cannot be used.
    ///
    /// Logging out never waits on the server: when this returns, requests already go without a
    /// token and a refresh in flight no longer changes anything. The returned promise says how the
    /// revocation went, for a log: it fulfils once the server confirmed it (at once when there is
    /// nothing to revoke), and rejects with an ``AuthenticationError`` of kind
    /// ``AuthenticationError/Kind/revocationFailed`` when the server could not be reached or refused.
    /// Ignoring it is fine.
    ///
    /// ```swift
    /// auth.logOut().failure { error, _ in log(error) }   // revocationFailed: for the log, not the user
    /// ```
    @discardableResult
    public func logOut() -> Promise<Void> {
        loadIfNeeded()
        let ended = session.withLock(annotating: self) { session in
            defer { session.end(because: nil) }
            return session.credentials
        }
        persist()
        emit(AuthenticationEvent(.loggedOut))
        guard let revocationEndpoint, let ended else { return Promise(value: ()) }
        return revoke(ended, at: revocationEndpoint)
    }

    /// Asks `endpoint` to revoke `credentials`' refresh token, or their access token without one.
    private func revoke(_ credentials: Credentials, at endpoint: FormEndpoint) -> Promise<Void> {
        let fields: [FormEndpoint.Field] = if let refreshToken = credentials.refreshToken {
            [("token", refreshToken), ("token_type_hint", "refresh_token")]
        } else {
            [("token", credentials.accessToken), ("token_type_hint", "access_token")]
        }
        // RFC 7009 §2.2: 200 whether or not the token was valid.
        return endpoint.post(fields).then { result in
            _ = try AuthenticationError.successfulResponse(of: result, orFail: .revocationFailed, endpoint: "the revocation endpoint")
        }
    }
}
