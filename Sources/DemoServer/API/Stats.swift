/// The counts behind `GET /_demo/stats`, which tests assert on.
struct Stats: Sendable {
    /// Requests per route, keyed by method and pattern: `"GET /orders/:id"`.
    var requests: [String: Int] = [:]
    var logins = 0
    var tokenRefreshes = 0
    var refreshTokensRejected = 0
    var photosStored = 0
    /// Requests the HTTP layer refused before routing: malformed, too large, or incomplete at timeout.
    var malformed = 0

    /// The documented shape, routes in alphabetical order so that the body is predictable.
    var json: JSONValue {
        let routes = requests.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.integer($0.value)) }
        return .object([
            ("requests", .object(routes)),
            ("logins", .integer(logins)),
            ("token_refreshes", .integer(tokenRefreshes)),
            ("refresh_tokens_rejected", .integer(refreshTokensRejected)),
            ("photos_stored", .integer(photosStored)),
            ("malformed", .integer(malformed)),
        ])
    }
}
