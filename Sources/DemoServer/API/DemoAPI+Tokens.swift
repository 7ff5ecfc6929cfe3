/// `POST /tokens`: the OAuth 2.0 password grant (RFC 6749 §4.3) and refresh (§6) of the demo.
extension DemoAPI {
    static let demoUsername = "demo"
    static let demoPassword = "demo"

    func issueTokens(_ exchange: HTTPExchange) throws(Refusal) -> ServerResponse {
        var fields: [String: String] = [:]
        switch try readFields(exchange) {
        case .form(let pairs):
            for pair in pairs where fields[pair.name] == nil { fields[pair.name] = pair.value }
        case .json(.object(let members)):
            for (name, value) in members {
                // A field of the wrong JSON type is as good as missing.
                if case .string(let text) = value { fields[name] = text }
            }
        case .json:
            throw Refusal(400, "invalid_request")
        }
        let pair: TokenStore.Pair
        switch fields["grant_type"] {
        case nil:
            throw Refusal(400, "invalid_request")
        case "password":
            guard let username = fields["username"], let password = fields["password"] else {
                throw Refusal(400, "invalid_request")
            }
            guard username == Self.demoUsername, password == Self.demoPassword else {
                throw Refusal(400, "invalid_grant")
            }
            pair = state.withLock { state in
                state.stats.logins += 1
                return state.tokens.issue(lifetime: tokenLifetime)
            }
        case "refresh_token":
            guard let refresh = fields["refresh_token"] else { throw Refusal(400, "invalid_request") }
            let rotated = state.withLock { state in
                let rotated = state.tokens.rotate(refresh: refresh, lifetime: tokenLifetime)
                if rotated == nil {
                    state.stats.refreshTokensRejected += 1
                } else {
                    state.stats.tokenRefreshes += 1
                }
                return rotated
            }
            guard let rotated else { throw Refusal(400, "invalid_grant") }
            pair = rotated
        default:
            throw Refusal(400, "unsupported_grant_type")
        }
        return .json(200, .object([
            ("token", .string(pair.access)),
            ("refresh_token", .string(pair.refresh)),
            ("expires_in", .integer(expiresIn)),
        ]), headers: [("Cache-Control", "no-store")])
    }
}
