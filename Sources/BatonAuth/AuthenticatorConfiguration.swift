import Foundation
import BatonClient

extension Authenticator {
    /// Everything an ``Authenticator`` is set up with. Each default is stated where it is declared;
    /// they fit an RFC 6749 authorization server.
    public struct Configuration: Sendable {
        /// The token endpoint, where every grant and refresh is posted, such as
        /// `https://api.example.com/oauth/token`.
        public var tokenURL: URL
        /// The authorization endpoint, the page ``Authenticator/beginAuthorization(redirectURI:scope:additionalParameters:)``
        /// sends the user to, such as `https://auth.example.com/authorize`. Needed for the
        /// authorization code grant only. Default `nil`.
        public var authorizationURL: URL?
        /// The device authorization endpoint (RFC 8628 §3.1), such as
        /// `https://auth.example.com/device_authorization`. Needed for the device grant only.
        /// Default `nil`.
        public var deviceAuthorizationURL: URL?
        /// The revocation endpoint (RFC 7009), such as `https://auth.example.com/revoke`. When set,
        /// ``Authenticator/logOut()`` revokes the refresh token there. Default `nil`: logging out
        /// forgets the tokens here only.
        public var revocationURL: URL?
        /// The API the access token is for: only requests to its origin (scheme, host and port)
        /// carry the token, whichever client sends them. `nil` (the default) means the origin of
        /// ``tokenURL``; set it when the token endpoint is elsewhere, such as
        /// `https://auth.example.com/token` for `https://api.example.com/`.
        public var apiURL: URL?
        /// The names of the fields of the token endpoint's response. Default ``TokenResponseFields/rfc6749``.
        public var fields: TokenResponseFields = .rfc6749
        /// How the app authenticates itself to the token endpoint. Default ``ClientAuthentication/none``.
        public var clientAuthentication: ClientAuthentication = .none
        /// The `scope` asked for at login, by every grant, if any.
        public var scope: String?
        /// Which responses mean the access token expired. Default ``ExpiredTokenDetection/default``.
        public var expiredToken: ExpiredTokenDetection = .default
        /// Where credentials are kept between launches. Default: memory only.
        public var store: any CredentialStore = InMemoryCredentialStore()
        /// How long before a known expiry the token is renewed, before a request needs it; `nil`
        /// renews only when the server refuses the token. Never earlier than half the token's
        /// remaining lifetime when it was received, so a short-lived token is not renewed on every
        /// request. Default 30 seconds.
        public var proactiveRefreshMargin: Duration? = .seconds(30)
        /// How many refreshes may start within ``refreshWindow``; past it, requests that meet an
        /// expired token fail with ``AuthenticationError/Kind/tooManyRefreshes`` rather than refresh
        /// again, so a server that refuses every new token cannot cause a loop. Default 5.
        public var refreshLimit: Int = 5
        /// The window ``refreshLimit`` counts in. Default 30 seconds.
        public var refreshWindow: Duration = .seconds(30)
        /// How long a login or refresh may take before it fails; requests waiting for a refresh
        /// wait no longer than this. Default 30 seconds.
        public var refreshTimeout: Duration = .seconds(30)
        /// What carries token requests; by default a `URLSessionTransport` of their own.
        public var transport: (any Transport)?
        /// Called with each ``AuthenticationEvent`` (logged in, refreshed, session ended, ...),
        /// on whichever thread it happened, never while a lock is held.
        public var onEvent: (@Sendable (AuthenticationEvent) -> Void)?

        /// A configuration for the token endpoint at `tokenURL`, with every other setting at its default.
        public init(tokenURL: URL) {
            self.tokenURL = tokenURL
        }
    }
}
