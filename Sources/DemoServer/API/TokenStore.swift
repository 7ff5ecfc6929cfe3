/// Access and refresh tokens: issue, check, rotate, expire.
///
/// Tokens are random and opaque (128 bits, hex). A refresh token works once: `rotate` removes it and
/// issues a new pair, so a replayed refresh token is refused. Logging in again does not revoke
/// earlier sessions.
struct TokenStore: Sendable {
    struct Pair: Sendable {
        var access: String
        var refresh: String
    }

    enum Check: Equatable {
        case valid
        /// Unknown, or known but past its lifetime (or expired by `/_demo/expire-tokens`).
        case invalid
    }

    private var accessExpiry: [String: ContinuousClock.Instant] = [:]
    private var refreshTokens: Set<String> = []

    mutating func issue(lifetime: Duration, now: ContinuousClock.Instant) -> Pair {
        // Expired tokens are forgotten here so that a long-running server does not grow without bound.
        accessExpiry = accessExpiry.filter { $0.value > now }
        let pair = Pair(access: Self.randomToken(prefix: "at_"), refresh: Self.randomToken(prefix: "rt_"))
        accessExpiry[pair.access] = now.advanced(by: lifetime)
        refreshTokens.insert(pair.refresh)
        return pair
    }

    /// An access token alone, as the client credentials grant issues (RFC 6749 §4.4.3).
    mutating func issueAccessToken(lifetime: Duration, now: ContinuousClock.Instant) -> String {
        accessExpiry = accessExpiry.filter { $0.value > now }
        let access = Self.randomToken(prefix: "at_")
        accessExpiry[access] = now.advanced(by: lifetime)
        return access
    }

    /// Stops `token` working, whether it is a refresh or an access token (RFC 7009 §2.1); says
    /// whether it was known.
    mutating func revoke(_ token: String) -> Bool {
        refreshTokens.remove(token) != nil || accessExpiry.removeValue(forKey: token) != nil
    }

    func check(access token: String, now: ContinuousClock.Instant) -> Check {
        guard let expiry = accessExpiry[token], expiry > now else { return .invalid }
        return .valid
    }

    /// A new pair for a refresh token that is still unused, nil for an unknown or used one.
    mutating func rotate(refresh token: String, lifetime: Duration, now: ContinuousClock.Instant) -> Pair? {
        guard refreshTokens.remove(token) != nil else { return nil }
        return issue(lifetime: lifetime, now: now)
    }

    /// Every access token stops working now; refresh tokens keep working, so a client can recover.
    mutating func expireAccessTokens() {
        accessExpiry.removeAll()
    }

    static func randomToken(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return prefix + String((0..<32).map { _ in digits[Int(generator.next() % 16)] })
    }
}
