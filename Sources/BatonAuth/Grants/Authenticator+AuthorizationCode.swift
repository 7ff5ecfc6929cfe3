import Foundation
import BatonPromise
import BatonClient
import BatonWire

/// The authorization code grant with PKCE (RFC 6749 §4.1, RFC 7636): how apps sign users in
/// through the browser.
extension Authenticator {
    /// Starts signing a user in through the browser: makes a new PKCE verifier (S256) and `state`,
    /// and returns the flow whose ``AuthorizationCodeFlow/url`` to open.
    ///
    /// ```swift
    /// let flow = try auth.beginAuthorization(redirectURI: URL(string: "com.example.app:/signed-in")!)
    /// // Open flow.url in the browser (ASWebAuthenticationSession); it comes back with `callback`.
    /// auth.logIn(completing: flow, redirectedTo: callback)
    ///     .success { _ in client.send(Orders.find(name: "山田")) }
    ///     .failure { error, _ in print(error) }
    /// ```
    ///
    /// Needs ``Configuration/authorizationURL`` and a client id
    /// (``ClientAuthentication/formBody(clientID:secret:)`` for an app, which has no secret).
    /// Nothing is sent until the code is exchanged.
    ///
    /// - Parameters:
    ///   - redirectURI: where the server sends the browser back, as registered with it.
    ///   - scope: the scope to ask for; `nil` asks for ``Configuration/scope``.
    ///   - additionalParameters: more query parameters the server understands, such as
    ///     `["prompt": "login"]` or `["login_hint": email]`.
    /// - Throws: ``AuthenticationError`` of kind ``AuthenticationError/Kind/notConfigured`` when
    ///   a setting is missing, or a parameter is one the flow sets itself.
    public func beginAuthorization(
        redirectURI: URL, scope: String? = nil, additionalParameters: [String: String] = [:]
    ) throws(AuthenticationError) -> AuthorizationCodeFlow {
        guard let authorizationURL = configuration.authorizationURL else {
            throw AuthenticationError(.notConfigured, detail: "the configuration has no authorizationURL (set it, or create the authenticator with Authenticator.discover(issuer:))")
        }
        let clientID = try requireClientID(for: "the authorization code grant")
        let state = RandomText.base64URL(bytes: 16)
        let proofKey = ProofKey.random()
        var parameters: [(String, String)] = [
            ("response_type", "code"), ("client_id", clientID), ("redirect_uri", redirectURI.absoluteString),
            ("state", state), ("code_challenge", proofKey.challenge), ("code_challenge_method", "S256"),
        ]
        if let scope = scope ?? configuration.scope { parameters.append(("scope", scope)) }
        for (name, value) in additionalParameters.sorted(by: { $0.key < $1.key }) {
            guard !parameters.contains(where: { $0.0 == name }) else {
                throw AuthenticationError(.notConfigured, detail: "the additional parameter \"\(MessageText.escaped(String(name.prefix(40))))\" is one the flow sets itself")
            }
            parameters.append((name, value))
        }
        guard var page = URLComponents(url: authorizationURL, resolvingAgainstBaseURL: true) else {
            throw AuthenticationError(.notConfigured, detail: "the authorizationURL is not a URL with a query")
        }
        let query = parameters.map { RequestBody.formEncode($0.0) + "=" + RequestBody.formEncode($0.1) }.joined(separator: "&")
        page.percentEncodedQuery = [page.percentEncodedQuery, query].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: "&")
        guard let url = page.url else {
            throw AuthenticationError(.notConfigured, detail: "the authorizationURL is not a URL with a query")
        }
        return AuthorizationCodeFlow(url: url, redirectURI: redirectURI, state: state, proofKey: proofKey)
    }

    /// Finishes signing in: checks the URL the browser came back with against `flow`, exchanges its
    /// code for tokens at the token endpoint, and returns the credentials, which every request then
    /// uses; they are saved in the store.
    ///
    /// Fails with an ``AuthenticationError``, having sent nothing, when the redirect is not this
    /// flow's: ``AuthenticationError/Kind/loginFailed`` for another redirect URI, a `state` that is not
    /// the flow's (the redirect may come from another attempt, or from another site), no code, or a
    /// parameter given twice; ``AuthenticationError/Kind/authorizationDenied`` when the server
    /// redirected with `access_denied`, with its `error_description`. Fails with
    /// ``AuthenticationError/Kind/loginFailed`` when the token endpoint refuses the code.
    public func logIn(completing flow: AuthorizationCodeFlow, redirectedTo url: URL) -> Promise<Credentials> {
        let code: String
        do throws(AuthenticationError) {
            code = try Self.code(in: url, completing: flow)
        } catch {
            return Promise(error: error)
        }
        // RFC 6749 §4.1.3 and RFC 7636 §4.5: the same redirect URI, and the verifier. The client
        // id goes with the client authentication, which a flow cannot begin without.
        let fields: [FormEndpoint.Field] = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", flow.redirectURI.absoluteString),
            ("code_verifier", flow.proofKey.verifier),
        ]
        return logIn(
            granting: fields,
            refusedGrant: "the authorization code was refused (used already, expired, or issued for another redirect URI or verifier); start signing in again"
        )
    }

    /// The code of the redirect to `url`, once it is shown to end `flow`.
    static func code(in url: URL, completing flow: AuthorizationCodeFlow) throws(AuthenticationError) -> String {
        guard Self.sameEndpoint(url, flow.redirectURI) else {
            throw AuthenticationError(.loginFailed, detail: "the URL the browser came back with is not the flow's redirect URI (\(flow.redirectURI.absoluteString))")
        }
        let parameters: RedirectParameters
        do throws(RedirectParameters.Unreadable) {
            parameters = try RedirectParameters(query: URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery)
        } catch .repeated(let name) {
            throw AuthenticationError(.loginFailed, detail: "the redirect gives the parameter \"\(MessageText.escaped(name))\" more than once")
        } catch {
            throw AuthenticationError(.loginFailed, detail: "the redirect's query is not valid percent-encoded UTF-8")
        }
        // Checked before anything else, the error too: a forged redirect must not get its error shown.
        guard parameters["state"] == flow.state else {
            throw AuthenticationError(.loginFailed, detail: "the redirect's state is not the one this flow sent, so it may come from another attempt or another site; nothing was exchanged")
        }
        if let error = parameters["error"] {
            let said = parameters["error_description"].map { " (\"\(MessageText.escaped(String($0.prefix(200))))\")" } ?? ""
            let cause = "the authorization server redirected with \(MessageText.escaped(String(error.prefix(80))))\(said)"
            throw AuthenticationError(error == "access_denied" ? .authorizationDenied : .loginFailed, detail: cause, errorCode: error)
        }
        guard let code = parameters["code"], !code.isEmpty else {
            throw AuthenticationError(.loginFailed, detail: "the redirect carries neither a code nor an error")
        }
        return code
    }

    /// Whether `url` goes to `redirectURI`: the same scheme, host, port and path, whatever the query.
    private static func sameEndpoint(_ url: URL, _ redirectURI: URL) -> Bool {
        guard let lhs = URLComponents(url: url, resolvingAgainstBaseURL: true),
              let rhs = URLComponents(url: redirectURI, resolvingAgainstBaseURL: true) else { return false }
        return lhs.scheme?.lowercased() == rhs.scheme?.lowercased() && lhs.host?.lowercased() == rhs.host?.lowercased()
            && lhs.port == rhs.port && lhs.percentEncodedPath == rhs.percentEncodedPath
    }

    /// The client id the user's consent goes to, for `grant`; throws when there is none.
    func requireClientID(for grant: String) throws(AuthenticationError) -> String {
        guard let clientID = configuration.clientAuthentication.clientID else {
            throw AuthenticationError(.notConfigured, detail: "\(grant) needs a client id: set configuration.clientAuthentication to .formBody(clientID:) (an app has no secret) or .basic(clientID:secret:)")
        }
        return clientID
    }
}
