import Foundation
import BatonClient
import BatonWire

/// Signing in, renewing the access token, revoking it or discovering the authorization server
/// failed: what an ``Authenticator`` fails calls and its own promises with.
///
/// Every request waiting for a refresh that failed fails with the same error, promptly. Its
/// ``kind`` says what the app should do: for ``Kind/sessionExpired``, ``Kind/loginFailed``
/// and ``Kind/notLoggedIn``, ask the user to sign in; for ``Kind/authorizationDenied``, nothing,
/// unless the user wants to try again; for ``Kind/authorizationExpired``, start signing in again,
/// with a new code; ``Kind/notConfigured`` is a programming error, fixed by the setting its
/// description names; ``Kind/revocationFailed`` is for a log, since the user is logged out here
/// anyway; for ``Kind/discoveryFailed``, check the issuer's URL, or set the endpoints' URLs
/// instead; for ``Kind/refreshFailed`` and ``Kind/tooManyRefreshes``, try again later. The
/// server's response (the token endpoint's, another endpoint of the authorization server's, or
/// the API's `401` for ``Kind/notLoggedIn``), when there was one, is in ``response`` and
/// ``errorCode``. The description is a sentence without any token, password, code, PKCE verifier
/// or client secret.
///
/// ```swift
/// client.send(Request<Order>(.get, "orders/1"))
///     .failure { error, _ in
///         if let error = error as? AuthenticationError, error.kind == .sessionExpired { showLogin() }
///     }
/// ```
public struct AuthenticationError: Error, Sendable, CustomStringConvertible {
    /// What failed. Compare with `==`, or `switch` with a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// Signing in failed: the token endpoint refused the grant (a wrong password, a code that
        /// was used or expired, a client it does not know), could not be reached, or answered
        /// something that is not a token; or the redirect that ended an authorization is not the
        /// one this app started.
        public static let loginFailed = Kind(name: "loginFailed")
        /// The user, or the authorization server, refused to grant access (`access_denied`): on the
        /// authorization page of the code grant, or on the verification page of the device grant.
        /// Nothing to retry unless the user wants to sign in after all.
        public static let authorizationDenied = Kind(name: "authorizationDenied")
        /// A device authorization expired before the user approved it (`expired_token`, or its
        /// `expires_in` passed): start again with ``Authenticator/beginDeviceAuthorization(scope:)``.
        public static let authorizationExpired = Kind(name: "authorizationExpired")
        /// The authenticator is not set up for what was asked, such as the authorization code grant
        /// without an ``Authenticator/Configuration/authorizationURL``: the description says which
        /// setting to give. Nothing was sent.
        public static let notConfigured = Kind(name: "notConfigured")
        /// Revoking the refresh token at the ``Authenticator/Configuration/revocationURL`` failed.
        /// The user is logged out here all the same; the server may keep the token until it expires.
        public static let revocationFailed = Kind(name: "revocationFailed")
        /// The authorization server's metadata (RFC 8414) could not be read or is not to be trusted:
        /// see ``Authenticator/discover(issuer:configure:)``.
        public static let discoveryFailed = Kind(name: "discoveryFailed")
        /// The token endpoint refused the refresh token (such as `invalid_grant`) or, for a
        /// service, its client credentials; or the access token expired with nothing to renew it.
        /// The credentials were cleared: the user must sign in again.
        public static let sessionExpired = Kind(name: "sessionExpired")
        /// The refresh did not complete (transport error, timeout, a response that is not a token).
        /// The credentials were kept: a later request tries again.
        public static let refreshFailed = Kind(name: "refreshFailed")
        /// A request to the API was refused `401 Unauthorized`, and it went without a token
        /// because the authenticator has no credentials: nobody logged in, or the user logged
        /// out. The ``AuthenticationError/response`` is the API's `401` (with its
        /// `WWW-Authenticate` challenge), and the ``AuthenticationError/underlyingError`` the
        /// call's `APIError`. Sign in first, with any of the authenticator's grants.
        public static let notLoggedIn = Kind(name: "notLoggedIn")
        /// The access token was refreshed as many times as ``Authenticator/Configuration/refreshLimit``
        /// allows within ``Authenticator/Configuration/refreshWindow`` and the server still refused
        /// it: no further refresh until the window has passed, so that a server that refuses every
        /// token cannot cause a refresh loop.
        public static let tooManyRefreshes = Kind(name: "tooManyRefreshes")

        /// The kind's name, as in `sessionExpired`.
        public var description: String { name }
    }

    /// What failed.
    public let kind: Kind
    /// The server's response, when there was one: the token endpoint's, or for
    /// ``Kind/notLoggedIn`` the API's `401`, with its `WWW-Authenticate` challenge. Kept whole, as
    /// `APIError.response` is; what Baton prints of it hides what `Redaction` names.
    public let response: HTTPResponse?
    /// The authorization server's error code: RFC 6749's `error` (such as `invalid_grant`) of the
    /// response, or of the redirect that ended an authorization; or a `message`.
    public let errorCode: String?
    /// The failure that stopped the exchange, such as an `APIError` for a timeout.
    public let underlyingError: (any Error)?
    /// Why, when neither a response nor an error says it.
    let detail: String?
    /// What an `invalid_grant` answer means for the grant that was refused, as in `the username or
    /// password is wrong`.
    let refusedGrant: String?
    /// Which endpoint ``response`` came from, as in `the token endpoint`.
    let endpoint: String

    init(
        _ kind: Kind, response: HTTPResponse? = nil, underlyingError: (any Error)? = nil, detail: String? = nil,
        errorCode: String? = nil, refusedGrant: String? = nil, endpoint: String = "the token endpoint"
    ) {
        self.endpoint = endpoint
        self.kind = kind
        self.response = response
        self.errorCode = errorCode ?? response.flatMap { TokenResponseReading.errorCode(in: $0) }
        self.underlyingError = underlyingError
        self.detail = detail
        self.refusedGrant = refusedGrant
    }

    /// One sentence, as in `The session has ended: the token endpoint answered 400 Bad Request
    /// (invalid_grant); log in again.`
    public var description: String {
        let cause = detail ?? answer ?? underlyingError.map { "\($0)" } ?? "no reason given"
        switch kind {
        case .loginFailed where errorCode == "invalid_grant" && refusedGrant != nil:
            return "Logging in failed: \(Self.trimmed(cause)): \(refusedGrant ?? "")."
        case .loginFailed where errorCode == "invalid_client":
            return "Logging in failed: \(Self.trimmed(cause)): the server does not accept the app's client authentication; check the authenticator's clientAuthentication."
        case .loginFailed: return "Logging in failed: \(Self.trimmed(cause))."
        case .authorizationDenied: return "The authorization was denied: \(Self.trimmed(cause)); the user can start signing in again."
        case .authorizationExpired: return "The authorization expired: \(Self.trimmed(cause)); start signing in again."
        case .notConfigured: return "The authenticator is not set up for this: \(Self.trimmed(cause)). Nothing was sent."
        case .revocationFailed: return "Revoking the token failed: \(Self.trimmed(cause)); the user is logged out here, but the server may accept the token until it expires."
        case .discoveryFailed: return "Discovering the authorization server failed: \(Self.trimmed(cause))."
        case .sessionExpired: return "The session has ended: \(Self.trimmed(cause)); log in again."
        case .refreshFailed: return "Refreshing the access token failed: \(Self.trimmed(cause)); the credentials were kept."
        case .notLoggedIn: return "Not logged in: \(Self.trimmed(cause)); sign in first with one of the authenticator's grants."
        case .tooManyRefreshes: return "The access token was not refreshed: \(Self.trimmed(cause))."
        default: return "Authentication failed (\(kind)): \(Self.trimmed(cause))."
        }
    }

    /// The server's response in words, as in `the token endpoint answered 400 Bad Request (invalid_grant)`.
    private var answer: String? {
        guard let response else { return nil }
        let code = errorCode.map { " (\(MessageText.escaped(String($0.prefix(80)))))" } ?? ""
        return "\(endpoint) answered \(response.statusCode) \(response.reasonPhrase)\(code)"
    }

    /// `text` without a final full stop, so that it can sit inside a sentence.
    private static func trimmed(_ text: String) -> String {
        text.hasSuffix(".") ? String(text.dropLast()) : text
    }
}

// `localizedDescription` (and so any UI or log that shows it) is the sentence, rather than
// Foundation's "The operation could not be completed. (Baton.AuthenticationError error 2.)".
extension AuthenticationError: LocalizedError {
    /// The error's sentence: see ``description``.
    public var errorDescription: String? { description }
}
