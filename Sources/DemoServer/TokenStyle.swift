/// How the demo server's token endpoint and token checks speak: the demo API's own dialect
/// (the DemoServer article of Baton's documentation), or that of a strict RFC 6749 / RFC 6750 authorization server, so that
/// clients can be tested against both.
public struct TokenStyle: Sendable, Equatable {
    enum Dialect: Sendable, Equatable {
        case demo
        case rfc6749(clientID: String, clientSecret: String)
    }

    let dialect: Dialect

    /// The demo API: `{"token": ...}` responses, `{"message": ...}` errors, no client authentication.
    public static let demo = TokenStyle(dialect: .demo)

    /// A strict RFC 6749 server: `POST /tokens` needs HTTP Basic client authentication with
    /// `clientID` and `clientSecret` (RFC 6749 §2.3.1, each form-encoded), answers
    /// `{"access_token", "token_type": "Bearer", "expires_in", "refresh_token"}` and errors as
    /// `{"error": ...}` (§5.2). A refused access token gets `401` with only the RFC 6750 challenge
    /// (`WWW-Authenticate: Bearer realm="demo", error="invalid_token"`) and an empty body.
    public static func rfc6749(clientID: String, clientSecret: String) -> TokenStyle {
        TokenStyle(dialect: .rfc6749(clientID: clientID, clientSecret: clientSecret))
    }
}
