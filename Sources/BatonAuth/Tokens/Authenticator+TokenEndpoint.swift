import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise
import BatonClient

/// The authenticator's exchanges with the token endpoint: a grant that begins a session, the
/// refreshes that keep it, and what their responses mean.
extension Authenticator {
    /// Logs in with the resource owner password credentials grant (RFC 6749 §4.3) and returns the
    /// new credentials, which every request then uses; they are saved in the store.
    ///
    /// A legacy grant: the OAuth 2.0 Security Best Current Practice (RFC 9700 §2.4) says it must not
    /// be used, since the app sees the user's password. Sign users in with
    /// ``beginAuthorization(redirectURI:scope:additionalParameters:)`` where the server allows it;
    /// this remains for servers that offer nothing else, such as the demo API.
    ///
    /// Fails with an ``AuthenticationError`` of kind ``AuthenticationError/Kind/loginFailed``,
    /// with the token endpoint's response when there was one (`invalid_grant` for a wrong password).
    /// The password is sent in the form body and kept nowhere.
    public func logIn(username: String, password: String) -> Promise<Credentials> {
        var fields: [FormEndpoint.Field] = [("grant_type", "password"), ("username", username), ("password", password)]
        if let scope = configuration.scope { fields.append(("scope", scope)) }
        return logIn(granting: fields, refusedGrant: "the username or password is wrong")
    }

    /// Posts a grant's `fields` to the token endpoint and begins a session with the credentials it
    /// answers; `refusedGrant` says what an `invalid_grant` answer means for this grant.
    func logIn(granting fields: [FormEndpoint.Field], as grant: Credentials.Grant? = nil, refusedGrant: String) -> Promise<Credentials> {
        tokenEndpoint.post(fields).then { [self] result in
            var credentials = try loginCredentials(from: result, refusedGrant: refusedGrant)
            credentials.grant = grant
            begin(credentials)
            return credentials
        }
    }

    /// The credentials a grant's exchange answered, or the ``AuthenticationError`` of kind
    /// ``AuthenticationError/Kind/loginFailed`` that says why there are none (a cancellation stays one).
    func loginCredentials(from result: Result<HTTPResponse, any Error>, refusedGrant: String) throws -> Credentials {
        let response = try AuthenticationError.successfulResponse(of: result, orFail: .loginFailed, refusedGrant: refusedGrant)
        do throws(TokenResponseReading.Unusable) {
            return try TokenResponseReading.credentials(from: response, fields: configuration.fields, previousRefreshToken: nil, now: now())
        } catch {
            throw AuthenticationError(.loginFailed, detail: error.reason)
        }
    }

    /// Makes `credentials` the session's, saves them and announces the login.
    func begin(_ credentials: Credentials) {
        session.withLock(annotating: self) { $0.begin(with: credentials, margin: configuration.proactiveRefreshMargin, now: now()) }
        persist()
        emit(AuthenticationEvent(.loggedIn))
    }

    /// Sends the refresh request of `launch` and settles its promise once the outcome is applied:
    /// the credentials are replaced (and saved) before any waiting request goes on.
    func sendRefresh(_ launch: AuthenticationSession.Launch) {
        // The authenticator's own share, never cancelled: the refresh runs to its end even if
        // every waiting request is cancelled, so that a rotated refresh token is never lost.
        _ = launch.shared.share()
        var fields: [FormEndpoint.Field]
        let previousRefreshToken: String?
        switch launch.renewal {
        case .refreshToken(let refreshToken):
            fields = [("grant_type", "refresh_token"), ("refresh_token", refreshToken)]
            previousRefreshToken = refreshToken
        case .clientCredentials:
            fields = [("grant_type", "client_credentials")]
            previousRefreshToken = nil
        }
        if let scope = configuration.scope { fields.append(("scope", scope)) }
        let exchange = tokenEndpoint.post(fields)
        launch.promise.wait(for: exchange)
        exchange.subscribe { [self] event in
            guard case .settled(let outcome) = event else { return }
            let result = refreshResult(Promise<HTTPResponse>.result(of: outcome), previousRefreshToken: previousRefreshToken, grant: launch.grant)
            let margin = configuration.proactiveRefreshMargin
            let applies = session.withLock(annotating: self) {
                $0.finishRefresh(launch.shared, session: launch.session, result: result, margin: margin, now: now())
            }
            if applies {
                switch result {
                case .success:
                    persist()
                    emit(AuthenticationEvent(.refreshed))
                case .failure(let error) where error.kind == .sessionExpired:
                    persist()
                    emit(AuthenticationEvent(.sessionEnded, error: error))
                case .failure:
                    break
                }
            }
            launch.promise.settle(result.mapError { $0 as any Error })
        }
    }

    /// What a refresh's exchange means: new credentials, an ended session (the endpoint refused the
    /// refresh token), or a failed refresh (anything else). New credentials keep `grant`.
    private func refreshResult(
        _ result: Result<HTTPResponse, any Error>, previousRefreshToken: String?, grant: Credentials.Grant?
    ) -> Result<Credentials, AuthenticationError> {
        switch result {
        case .success(let response) where (200..<300).contains(response.statusCode):
            do throws(TokenResponseReading.Unusable) {
                var renewed = try TokenResponseReading.credentials(
                    from: response, fields: configuration.fields, previousRefreshToken: previousRefreshToken, now: Date()
                )
                renewed.grant = grant
                return .success(renewed)
            } catch {
                return .failure(AuthenticationError(.refreshFailed, detail: error.reason))
            }
        case .success(let response) where response.statusCode == 400 || response.statusCode == 401:
            // RFC 6749 §5.2: the grant or the client was refused; the same refresh token will not work again.
            return .failure(AuthenticationError(.sessionExpired, response: response))
        case .success(let response):
            return .failure(AuthenticationError(.refreshFailed, response: response))
        case .failure(let error):
            return .failure(AuthenticationError(.refreshFailed, underlyingError: error))
        }
    }
}
