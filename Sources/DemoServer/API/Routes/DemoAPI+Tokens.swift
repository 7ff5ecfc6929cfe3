import Foundation

/// `POST /tokens`: the OAuth 2.0 password grant (RFC 6749 §4.3) and refresh (§6) of the demo.
extension DemoAPI {
    static let demoUsername = "demo"
    static let demoPassword = "demo"

    func issueTokens(_ exchange: HTTPExchange) throws(Refusal) -> ServerResponse {
        do throws(Refusal) {
            if case .rfc6749(let id, let secret) = tokenStyle.dialect {
                try authenticateClient(exchange.head, id: id, secret: secret)
            }
            return try tokenResponse(exchange)
        } catch {
            guard tokenStyle != .demo, case .object(let members)? = JSONParser.parse(error.response.body),
                  case .string(let message)? = members.first(where: { $0.0 == "message" })?.1 else { throw error }
            // RFC 6749 §5.2: the error code is `error`.
            var response = ServerResponse.json(error.response.status, .object([("error", .string(message))]))
            for header in error.response.headers where header.name.lowercased() == "www-authenticate" {
                response.setHeader(header.name, header.value)
            }
            throw Refusal(response)
        }
    }

    /// RFC 6749 §2.3.1: `Authorization: Basic` with the form-encoded client id and secret.
    private func authenticateClient(_ head: HTTPRequestHead, id: String, secret: String) throws(Refusal) {
        let refusal = Refusal(.message(401, "invalid_client", headers: [("WWW-Authenticate", "Basic realm=\"demo\"")]))
        let parts = (head.headers["Authorization"] ?? "").split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let decoded = Data(base64Encoded: String(parts[1].trimmingOWS())).flatMap({ String(data: $0, encoding: .utf8) }),
              let colon = decoded.firstIndex(of: ":"),
              FormURLEncoded.percentDecode(decoded[..<colon], plusIsSpace: true) == id,
              FormURLEncoded.percentDecode(decoded[decoded.index(after: colon)...], plusIsSpace: true) == secret else {
            throw refusal
        }
    }

    private func tokenResponse(_ exchange: HTTPExchange) throws(Refusal) -> ServerResponse {
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
            let now = tokenClock()
            pair = state.withLock { state in
                state.stats.logins += 1
                return state.tokens.issue(lifetime: tokenLifetime, now: now)
            }
        case "refresh_token":
            guard let refresh = fields["refresh_token"] else { throw Refusal(400, "invalid_request") }
            let now = tokenClock()
            let rotated = state.withLock { state in
                let rotated = state.tokens.rotate(refresh: refresh, lifetime: tokenLifetime, now: now)
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
        if tokenStyle != .demo {
            return .json(200, .object([
                ("access_token", .string(pair.access)),
                ("token_type", .string("Bearer")),
                ("expires_in", .integer(expiresIn)),
                ("refresh_token", .string(pair.refresh)),
            ]), headers: [("Cache-Control", "no-store")])
        }
        return .json(200, .object([
            ("token", .string(pair.access)),
            ("refresh_token", .string(pair.refresh)),
            ("expires_in", .integer(expiresIn)),
        ]), headers: [("Cache-Control", "no-store")])
    }
}
