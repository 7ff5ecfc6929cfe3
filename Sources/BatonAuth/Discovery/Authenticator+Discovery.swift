import Foundation
import BatonPromise
import BatonClient

/// Finding the authorization server's endpoints in its metadata (RFC 8414).
extension Authenticator {
    /// Reads the metadata `issuer` publishes at `/.well-known/oauth-authorization-server`, and
    /// returns an authenticator for the endpoints it names: token, authorization, device
    /// authorization and revocation, those it has.
    ///
    /// ```swift
    /// Authenticator.discover(issuer: URL(string: "https://auth.example.com")!) {
    ///     $0.clientAuthentication = .formBody(clientID: "ios-app")
    ///     $0.apiURL = URL(string: "https://api.example.com/")
    /// }
    /// .success { auth in
    ///     let flow = try auth.beginAuthorization(redirectURI: URL(string: "com.example.app:/signed-in")!)
    ///     // open flow.url in the browser ...
    /// }
    /// ```
    ///
    /// `configure` sets everything else (the client authentication, the store, ``Configuration/apiURL``
    /// and so on) before the metadata is read with its ``Configuration/transport``; the endpoints'
    /// URLs it sets are replaced by the server's. Set ``Configuration/apiURL`` when the API is not
    /// at the issuer's origin: the token is sent to no other.
    ///
    /// The metadata is trusted only when it names `issuer` itself (RFC 8414 §3.3) and, for an
    /// https issuer, only https endpoints. Otherwise, or when it cannot be read, the promise rejects
    /// with an ``AuthenticationError`` of kind ``AuthenticationError/Kind/discoveryFailed``; create
    /// the authenticator with explicit URLs instead.
    public static func discover(issuer: URL, configure: (inout Configuration) -> Void = { _ in }) -> Promise<Authenticator> {
        var configuration = Configuration(tokenURL: issuer)
        configure(&configuration)
        guard let address = AuthorizationServerMetadata.address(of: issuer) else {
            return Promise(error: AuthenticationError(.discoveryFailed, detail: "the issuer must be an http or https URL with a host, and no query or fragment"))
        }
        let reader: FormEndpoint
        do {
            reader = try FormEndpoint(url: address, configuration: configuration, maximumResponseSize: 1 << 20)
        } catch {
            return Promise(error: AuthenticationError(.discoveryFailed, underlyingError: error))
        }
        return reader.read().then { [configuration] result in
            let response = try AuthenticationError.successfulResponse(
                of: result, orFail: .discoveryFailed, endpoint: "the metadata address \(address.absoluteString)"
            )
            let metadata: AuthorizationServerMetadata
            do throws(AuthorizationServerMetadata.Unusable) {
                metadata = try AuthorizationServerMetadata(json: response.body, issuer: issuer)
            } catch {
                throw AuthenticationError(.discoveryFailed, detail: "\(error.reason); set the endpoints' URLs in the configuration instead")
            }
            var discovered = configuration
            discovered.tokenURL = metadata.tokenEndpoint
            discovered.authorizationURL = metadata.authorizationEndpoint
            discovered.deviceAuthorizationURL = metadata.deviceAuthorizationEndpoint
            discovered.revocationURL = metadata.revocationEndpoint
            do {
                return try Authenticator(configuration: discovered)
            } catch {
                throw AuthenticationError(.discoveryFailed, underlyingError: error)
            }
        }
    }
}
