/// Something that happened to an ``Authenticator``'s session, for
/// ``Authenticator/Configuration/onEvent``: the place to send the user to the login screen when
/// the session ends, whichever request found out.
///
/// A struct rather than an enum, so that new kinds can be added without breaking your code:
/// switch over ``kind`` with a `default` case.
///
/// ```swift
/// let authenticator = try Authenticator(tokenURL: api.appending(path: "tokens")) { configuration in
///     configuration.onEvent = { event in
///         if event.kind == .sessionEnded { DispatchQueue.main.async { router.showLogin() } }
///     }
/// }
/// ```
public struct AuthenticationEvent: Sendable, CustomStringConvertible {
    /// What happened. Compare with `==`, or `switch` with a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// A session began: one of the grants signed in (the code flow, client credentials, the
        /// device grant, the password grant), or ``Authenticator/adopt(_:)`` took credentials.
        public static let loggedIn = Kind(name: "loggedIn")
        /// The access token was renewed: with the refresh token, or for client credentials by
        /// asking again.
        public static let refreshed = Kind(name: "refreshed")
        /// ``Authenticator/logOut()`` cleared the credentials.
        public static let loggedOut = Kind(name: "loggedOut")
        /// The session ended without the user logging out (the refresh token was refused, or there
        /// was none): the credentials were cleared. ``AuthenticationEvent/error`` says why. Sent
        /// once per ended session, however many requests were waiting.
        public static let sessionEnded = Kind(name: "sessionEnded")
        /// The ``CredentialStore`` failed to load, save or clear: ``AuthenticationEvent/error``
        /// says why. The credentials in memory are unaffected; what was not saved will be missing
        /// after a restart.
        public static let storeFailed = Kind(name: "storeFailed")

        /// The kind's name, as in `sessionEnded`.
        public var description: String { name }
    }

    /// What happened.
    public let kind: Kind
    /// Why, for ``Kind/sessionEnded`` (an ``AuthenticationError``) and ``Kind/storeFailed``.
    public let error: (any Error)?

    init(_ kind: Kind, error: (any Error)? = nil) {
        self.kind = kind
        self.error = error
    }

    /// The kind, and the error if there is one, as in `storeFailed: The credentials file ...`.
    public var description: String {
        error.map { "\(kind): \($0)" } ?? "\(kind)"
    }
}
