import BatonPromise

/// The client credentials grant (RFC 6749 §4.4): a service signing in as itself.
extension Authenticator {
    /// Signs the app itself in with its client id and secret, for a service or a tool that acts on
    /// its own behalf rather than a user's, and returns the credentials, which every request then
    /// uses; they are saved in the store.
    ///
    /// ```swift
    /// let auth = try Authenticator(tokenURL: URL(string: "https://auth.example.com/token")!) {
    ///     $0.clientAuthentication = .basic(clientID: "reports-service", secret: secret)
    ///     $0.apiURL = URL(string: "https://api.example.com/")
    /// }
    /// auth.logInAsClient().success { _ in client.send(Orders.find(name: "山田")) }
    /// ```
    ///
    /// The server issues no refresh token for this grant, so when the token expires (or ahead of
    /// its expiry) the authenticator asks for a new one the same way, under the same single-flight
    /// rules as a refresh: however many requests meet the expired token, one request is sent.
    ///
    /// Needs a client secret (``ClientAuthentication/basic(clientID:secret:)``, or
    /// ``ClientAuthentication/formBody(clientID:secret:)`` with one): otherwise fails with an
    /// ``AuthenticationError`` of kind ``AuthenticationError/Kind/notConfigured`` and sends nothing.
    /// Fails with ``AuthenticationError/Kind/loginFailed`` when the token endpoint refuses the client.
    public func logInAsClient() -> Promise<Credentials> {
        guard configuration.clientAuthentication.hasSecret else {
            return Promise(error: AuthenticationError(
                .notConfigured,
                detail: "the client credentials grant needs the client's id and secret: set configuration.clientAuthentication to .basic(clientID:secret:) or .formBody(clientID:secret:)"
            ))
        }
        var fields: [FormEndpoint.Field] = [("grant_type", "client_credentials")]
        if let scope = configuration.scope { fields.append(("scope", scope)) }
        return logIn(granting: fields, as: .clientCredentials, refusedGrant: "the client's credentials were refused")
    }
}
