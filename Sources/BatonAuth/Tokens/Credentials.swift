import Foundation

/// What an ``Authenticator`` holds for a logged-in user: the access token sent with requests, the
/// refresh token that renews it, and when the access token expires.
///
/// Printing credentials (`print`, `dump`, string interpolation, a debugger's summary) never shows
/// the tokens, so they cannot leak into a log by accident: read ``accessToken`` and
/// ``refreshToken`` explicitly where you need them.
public struct Credentials: Codable, Sendable, Equatable {
    /// The token sent as `Authorization: Bearer <token>`.
    public var accessToken: String
    /// The token that obtains a new access token (RFC 6749 §6); `nil` if the server issued none, in
    /// which case an expired access token ends the session.
    public var refreshToken: String?
    /// When the access token expires, if the server said (`expires_in`).
    public var expiresAt: Date?
    /// How the session renews without a refresh token: set on tokens of the client credentials
    /// grant, which are renewed by asking for a new one. Saved with the credentials, so that a
    /// service's session read back from its store after a restart renews the same way.
    var grant: Grant?

    /// A grant that can be asked for again when its token expires.
    enum Grant: String, Codable, Sendable {
        case clientCredentials = "client_credentials"
    }

    /// Credentials with the given tokens and expiry.
    public init(accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
    }
}

extension Credentials: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The shape of the credentials without their secrets, as in
    /// `Credentials(access token, refresh token, expires 2026-11-25T10:00:00Z)`.
    public var description: String {
        var parts = ["access token"]
        if refreshToken != nil { parts.append("refresh token") }
        if let expiresAt { parts.append("expires \(ISO8601DateFormatter().string(from: expiresAt))") }
        return "Credentials(\(parts.joined(separator: ", ")))"
    }

    /// The same as ``description``: no secrets.
    public var debugDescription: String { description }

    /// What `dump` and debuggers show: the expiry, and whether each token is there, never a token.
    public var customMirror: Mirror {
        Mirror(self, children: [
            "accessToken": "<hidden>",
            "refreshToken": refreshToken == nil ? "nil" : "<hidden>",
            "expiresAt": expiresAt as Any,
        ])
    }
}
