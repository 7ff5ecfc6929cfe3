import Foundation

/// Credentials obtained elsewhere, made the session's.
extension Authenticator {
    /// Makes `credentials` obtained elsewhere (by another library, a web view, an earlier version of
    /// the app) the session's, as a login would: every request then uses them, they are saved in
    /// the store, ``AuthenticationEvent/Kind/loggedIn`` is sent, and they are renewed with their
    /// refresh token like any others.
    ///
    /// ```swift
    /// try auth.adopt(Credentials(accessToken: access, refreshToken: refresh, expiresAt: expiry))
    /// ```
    ///
    /// Without a refresh token, the session ends when the access token expires.
    ///
    /// - Throws: ``AuthenticationError`` of kind ``AuthenticationError/Kind/loginFailed``, leaving
    ///   the session as it was, when the access token is empty or holds characters an HTTP header
    ///   cannot carry (which would otherwise let it forge header lines).
    public func adopt(_ credentials: Credentials) throws(AuthenticationError) {
        do throws(TokenResponseReading.Unusable) {
            try TokenResponseReading.checkHeaderSafe(credentials.accessToken)
        } catch {
            throw AuthenticationError(.loginFailed, detail: error.reason)
        }
        begin(credentials)
    }
}
