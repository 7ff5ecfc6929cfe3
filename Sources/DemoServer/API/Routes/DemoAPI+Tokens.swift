import Foundation

/// `POST /tokens`: the demo's token endpoint, for every grant it speaks: the password grant (RFC
/// 6749 §4.3), refresh (§6), the authorization code with PKCE (§4.1, RFC 7636), client credentials
/// (§4.4) and the device code (RFC 8628 §3.4).
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
            guard tokenStyle != .demo, case .object(let members)? = JSONParser.parse(Array(error.response.body)),
                  case .string(let message)? = members.first(where: { $0.0 == "message" })?.1 else { throw error }
            // RFC 6749 §5.2: the error code is `error`.
            var response = ServerResponse.json(error.response.status, .object([("error", .string(message))]))
            for header in error.response.headers where header.name.lowercased() == "www-authenticate" {
                response.setHeader(header.name, header.value)
            }
            throw Refusal(response)
        }
    }

    /// A new access and refresh token, counted by `count`.
    func issuePair(now: ContinuousClock.Instant, count: (inout DemoServer.Stats) -> Void) -> (access: String, refresh: String?) {
        state.withLock { state in
            count(&state.stats)
            let pair = state.tokens.issue(lifetime: tokenLifetime, now: now)
            return (pair.access, pair.refresh)
        }
    }

    /// RFC 6749 §2.3.1: `Authorization: Basic` with the form-encoded client id and secret.
    func authenticateClient(_ head: HTTPRequestHead, id: String, secret: String) throws(Refusal) {
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
        let issued: (access: String, refresh: String?)
        let now = tokenClock()
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
            issued = issuePair(now: now) { $0.logins += 1 }
        case "refresh_token":
            guard let refresh = fields["refresh_token"] else { throw Refusal(400, "invalid_request") }
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
            issued = (rotated.access, rotated.refresh)
        case "authorization_code":
            issued = try exchangeCode(fields, exchange.head, now: now)
        case "client_credentials":
            try authenticateService(fields, exchange.head)
            issued = state.withLock { state in
                state.stats.clientCredentialsGrants += 1
                return (state.tokens.issueAccessToken(lifetime: tokenLifetime, now: now), nil)
            }
        case Self.deviceCodeGrant:
            issued = try answerDevicePoll(fields, now: now)
        default:
            throw Refusal(400, "unsupported_grant_type")
        }
        var members: [(String, JSONValue)] = tokenStyle != .demo
            ? [("access_token", .string(issued.access)), ("token_type", .string("Bearer"))]
            : [("token", .string(issued.access))]
        members.append(("expires_in", .integer(expiresIn)))
        if let refresh = issued.refresh { members.append(("refresh_token", .string(refresh))) }
        return .json(200, .object(members), headers: [("Cache-Control", "no-store")])
    }
}
