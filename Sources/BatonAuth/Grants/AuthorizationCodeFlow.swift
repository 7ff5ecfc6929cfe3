import Foundation

/// One sign-in through the browser with the authorization code grant and PKCE (RFC 6749 §4.1,
/// RFC 7636): the page to open, and what the authenticator needs to finish when the browser comes
/// back.
///
/// Made by ``Authenticator/beginAuthorization(redirectURI:scope:additionalParameters:)``; open
/// ``url`` in the system's browser (`ASWebAuthenticationSession` on Apple platforms), and hand the
/// URL it comes back with to ``Authenticator/logIn(completing:redirectedTo:)``. Each flow works
/// once: its code, its `state` and its verifier are new each time.
///
/// Printing a flow shows where it goes, never its verifier or `state`.
public struct AuthorizationCodeFlow: Sendable, CustomStringConvertible, CustomReflectable {
    /// The authorization page to open: the authorization endpoint with the client id, the
    /// redirect URI, the scope, `state` and the PKCE challenge in its query.
    public let url: URL
    /// Where the authorization server sends the browser back; the URL it comes back with starts
    /// with this.
    public let redirectURI: URL
    /// Ties the redirect to this flow (RFC 6749 §10.12): a redirect with another `state` was not
    /// started here.
    let state: String
    /// The PKCE secret, sent only with the code, to the token endpoint.
    let proofKey: ProofKey

    /// Where the flow goes, as in `AuthorizationCodeFlow(https://auth.example.com/authorize, back to
    /// com.example.app:/signed-in)`: no `state`, no challenge, no verifier.
    public var description: String {
        var page = URLComponents(url: url, resolvingAgainstBaseURL: false)
        page?.query = nil
        return "AuthorizationCodeFlow(\(page?.string ?? "the authorization page"), back to \(redirectURI.absoluteString))"
    }

    /// What `dump` and debuggers show: the same as ``description``.
    public var customMirror: Mirror {
        Mirror(self, children: ["description": description])
    }
}
