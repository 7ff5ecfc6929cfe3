/// The names of the fields of a token endpoint's JSON response. The defaults are RFC 6749 §5.1's.
///
/// ```swift
/// // An API that answers {"token": "...", "refresh_token": "...", "expires_in": 60}
/// let authenticator = try Authenticator(tokenURL: api.appending(path: "tokens")) { configuration in
///     configuration.fields = TokenResponseFields(accessToken: "token")
/// }
/// ```
public struct TokenResponseFields: Sendable, Hashable {
    /// The access token. Default `access_token`.
    public var accessToken: String
    /// The refresh token; a response without one keeps the refresh token held before (RFC 6749 §6).
    /// Default `refresh_token`.
    public var refreshToken: String
    /// The access token's lifetime in seconds. Default `expires_in`.
    public var expiresIn: String
    /// The token type, which must be `Bearer` (in any case) when present. Default `token_type`.
    public var tokenType: String

    /// Field names, each defaulting to RFC 6749's.
    public init(
        accessToken: String = "access_token", refreshToken: String = "refresh_token",
        expiresIn: String = "expires_in", tokenType: String = "token_type"
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresIn = expiresIn
        self.tokenType = tokenType
    }

    /// RFC 6749's names: `access_token`, `refresh_token`, `expires_in`, `token_type`.
    public static let rfc6749 = TokenResponseFields()
}
