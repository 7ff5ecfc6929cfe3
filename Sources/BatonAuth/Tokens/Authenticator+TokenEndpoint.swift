import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise
import BatonClient

/// The authenticator's exchanges with the token endpoint: the password grant, refreshes, and what
/// their responses mean.
extension Authenticator {
    /// Logs in with the resource owner password credentials grant (RFC 6749 §4.3) and returns the
    /// new credentials, which every request then uses; they are saved in the store.
    ///
    /// Fails with an ``AuthenticationError`` of kind ``AuthenticationError/Kind/loginFailed``,
    /// with the token endpoint's response when there was one (`invalid_grant` for a wrong password).
    /// The password is sent in the form body and kept nowhere.
    public func logIn(username: String, password: String) -> Promise<Credentials> {
        var fields: [(name: String, value: String)] = [("grant_type", "password"), ("username", username), ("password", password)]
        if let scope = configuration.scope { fields.append(("scope", scope)) }
        return tokenClient.send(tokenRequest(fields)).then { [self] result in
            let credentials: Credentials
            switch result {
            case .success(let response):
                guard (200..<300).contains(response.statusCode) else { throw AuthenticationError(.loginFailed, response: response) }
                do throws(TokenResponseReading.Unusable) {
                    credentials = try TokenResponseReading.credentials(from: response, fields: configuration.fields, previousRefreshToken: nil, now: now())
                } catch {
                    throw AuthenticationError(.loginFailed, detail: error.reason)
                }
            case .failure(let error) where error.isCancellation:
                throw error
            case .failure(let error):
                throw AuthenticationError(.loginFailed, underlyingError: error)
            }
            session.withLock(annotating: self) { $0.begin(with: credentials, margin: configuration.proactiveRefreshMargin, now: now()) }
            persist()
            emit(AuthenticationEvent(.loggedIn))
            return credentials
        }
    }

    /// Sends the refresh request of `launch` and settles its promise once the outcome is applied:
    /// the credentials are replaced (and saved) before any waiting request goes on.
    func sendRefresh(_ launch: AuthenticationSession.Launch) {
        // The authenticator's own share, never cancelled: the refresh runs to its end even if
        // every waiting request is cancelled, so that a rotated refresh token is never lost.
        _ = launch.shared.share()
        var fields: [(name: String, value: String)] = [("grant_type", "refresh_token"), ("refresh_token", launch.refreshToken)]
        if let scope = configuration.scope { fields.append(("scope", scope)) }
        let exchange = tokenClient.send(tokenRequest(fields))
        launch.promise.wait(for: exchange)
        exchange.subscribe { [self] event in
            guard case .settled(let outcome) = event else { return }
            let result = refreshResult(Promise<HTTPResponse>.result(of: outcome), previousRefreshToken: launch.refreshToken)
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
    /// refresh token), or a failed refresh (anything else).
    private func refreshResult(_ result: Result<HTTPResponse, any Error>, previousRefreshToken: String) -> Result<Credentials, AuthenticationError> {
        switch result {
        case .success(let response) where (200..<300).contains(response.statusCode):
            do throws(TokenResponseReading.Unusable) {
                return .success(try TokenResponseReading.credentials(
                    from: response, fields: configuration.fields, previousRefreshToken: previousRefreshToken, now: Date()
                ))
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

    /// A request to the token endpoint with `fields` and the client authentication.
    private func tokenRequest(_ fields: [(name: String, value: String)]) -> TokenRequest {
        var headers = configuration.clientAuthentication.headers
        headers["Accept"] = "application/json"
        return TokenRequest(path: tokenPath, headers: headers, body: .form(fields + configuration.clientAuthentication.formFields))
    }

    /// The token URL as a base URL and a last path segment, since a client's paths are relative.
    static func split(_ url: URL) -> (URL, EndpointPath) {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return (url, "") }
        let path = components.percentEncodedPath
        guard let slash = path.lastIndex(of: "/") else { return (url, "") }
        let last = String(path[path.index(after: slash)...])
        components.percentEncodedPath = String(path[..<slash])
        return (components.url ?? url, EndpointPath(stringLiteral: last))
    }
}
