import Foundation

/// The demo's sign-in without a password: the authorization page of the code grant, which approves
/// at once (no browser needed), the device grant's endpoints, client credentials, revocation and
/// the server's metadata (RFC 8414).
extension DemoAPI {
    /// The one service the client credentials grant knows, in the demo dialect.
    static let serviceClientID = "demo-service"
    static let serviceClientSecret = "demo-secret"
    static let deviceCodeGrant = "urn:ietf:params:oauth:grant-type:device_code"

    // MARK: The authorization code grant

    /// `GET /authorize`: the authorization page. The demo user is signed in and consents at once,
    /// so it redirects straight back to `redirect_uri` with a code and the `state`; with
    /// `demo_decision=deny` the user declines, and it redirects back with `access_denied`.
    ///
    /// Without a usable `client_id` and `redirect_uri` it answers `400` rather than redirect (RFC
    /// 6749 §4.1.2.1: never to an unchecked address); every other problem is redirected back as an
    /// `error`. PKCE with `S256` is required.
    func authorize(query text: String) throws(Refusal) -> ServerResponse {
        guard let query = FormURLEncoded.decode(text) else { throw Refusal(400, "query is not valid form data") }
        let value = { (name: String) in FormURLEncoded.value(name, in: query) }
        guard let clientID = value("client_id"), !clientID.isEmpty else { throw Refusal(400, "client_id is required") }
        guard let redirectURI = value("redirect_uri"), Self.isRedirectURI(redirectURI) else {
            throw Refusal(400, "redirect_uri must be an absolute URL without a fragment")
        }
        var answer: [(name: String, value: String)]
        if value("response_type") != "code" {
            answer = [("error", "unsupported_response_type")]
        } else if value("code_challenge_method") != "S256" || (value("code_challenge") ?? "").utf8.count != 43 {
            answer = [("error", "invalid_request"), ("error_description", "PKCE with the S256 method is required")]
        } else if value("demo_decision") == "deny" {
            answer = [("error", "access_denied"), ("error_description", "The user declined")]
        } else {
            let now = tokenClock()
            let code = state.withLock {
                $0.grants.issueCode(clientID: clientID, redirectURI: redirectURI, challenge: value("code_challenge") ?? "", now: now)
            }
            guard let code else { throw Refusal(503, "temporarily_unavailable") }
            answer = [("code", code)]
        }
        if let state = value("state") { answer.append(("state", state)) }
        let separator = redirectURI.contains("?") ? "&" : "?"
        return ServerResponse(status: 302, headers: [("Location", redirectURI + separator + FormURLEncoded.encode(answer))])
    }

    /// An absolute URL with a scheme, no fragment, and nothing that could forge a header line.
    private static func isRedirectURI(_ text: String) -> Bool {
        guard let url = URL(string: text), url.scheme != nil, url.fragment == nil else { return false }
        return !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// `grant_type=authorization_code`: the code, for the same client and redirect URI, with the
    /// verifier of its challenge.
    func exchangeCode(_ fields: [String: String], _ head: HTTPRequestHead, now: ContinuousClock.Instant) throws(Refusal) -> (access: String, refresh: String?) {
        guard let code = fields["code"] else { throw Refusal(400, "invalid_request") }
        // A strict server knows the client from its Basic authentication; the demo from the form.
        let clientID: String?
        switch tokenStyle.dialect {
        case .demo:
            guard let id = fields["client_id"] else { throw Refusal(400, "invalid_request") }
            clientID = id
        case .rfc6749(let id, _):
            clientID = id
        }
        let redeemed = state.withLock { state in
            let redeemed = state.grants.redeem(code: code, clientID: clientID, redirectURI: fields["redirect_uri"], verifier: fields["code_verifier"], now: now)
            if redeemed { state.stats.codeExchanges += 1 }
            return redeemed
        }
        guard redeemed else { throw Refusal(400, "invalid_grant") }
        return issuePair(now: now) { _ in }
    }

    // MARK: Client credentials

    /// The demo dialect's service: `demo-service` with the secret `demo-secret`, by HTTP Basic or in
    /// the form. A strict server has authenticated the client already.
    func authenticateService(_ fields: [String: String], _ head: HTTPRequestHead) throws(Refusal) {
        guard tokenStyle == .demo else { return }
        if fields["client_id"] == Self.serviceClientID, fields["client_secret"] == Self.serviceClientSecret { return }
        try authenticateClient(head, id: Self.serviceClientID, secret: Self.serviceClientSecret)
    }

    // MARK: The device grant

    /// `POST /device_authorization` (RFC 8628 §3.1): a device code, and the user code to enter at
    /// `POST /device`.
    func authorizeDevice(_ exchange: HTTPExchange) throws(Refusal) -> ServerResponse {
        let now = tokenClock()
        let issued = state.withLock { state in
            let issued = state.grants.issueDeviceCode(interval: devicePollInterval, now: now)
            if issued != nil { state.stats.deviceAuthorizations += 1 }
            return issued
        }
        guard let issued else { throw Refusal(503, "temporarily_unavailable") }
        let page = origin.value + "/device"
        return .json(200, .object([
            ("device_code", .string(issued.deviceCode)),
            ("user_code", .string(issued.userCode)),
            ("verification_uri", .string(page)),
            ("verification_uri_complete", .string(page + "?" + FormURLEncoded.encode([("user_code", issued.userCode)]))),
            ("expires_in", .integer(Int(GrantStore.deviceCodeLifetime.components.seconds))),
            ("interval", .integer(Int(devicePollInterval.components.seconds))),
        ]), headers: [("Cache-Control", "no-store")])
    }

    /// `POST /device`: the verification page's form, `user_code` and `decision` (`approve` or
    /// `deny`), as the user would submit it; what a test or the playground does instead of a person.
    func verifyDevice(_ exchange: HTTPExchange) throws(Refusal) -> ServerResponse {
        guard case .form(let pairs) = try readFields(exchange),
              let userCode = FormURLEncoded.value("user_code", in: pairs),
              let decision = FormURLEncoded.value("decision", in: pairs), decision == "approve" || decision == "deny"
        else { throw Refusal(400, "send user_code and decision=approve or deny as a form") }
        let now = tokenClock()
        guard state.withLock({ $0.grants.decide(userCode: userCode, approve: decision == "approve", now: now) }) else {
            throw Refusal(404, "no pending device authorization has this user code")
        }
        return .json(200, .object([("decision", .string(decision))]))
    }

    /// `grant_type=urn:ietf:params:oauth:grant-type:device_code`: a device's poll (RFC 8628 §3.5).
    func answerDevicePoll(_ fields: [String: String], now: ContinuousClock.Instant) throws(Refusal) -> (access: String, refresh: String?) {
        guard let deviceCode = fields["device_code"] else { throw Refusal(400, "invalid_request") }
        let poll = state.withLock { state in
            state.stats.devicePolls += 1
            return state.grants.poll(deviceCode: deviceCode, now: now)
        }
        switch poll {
        case .approved: return issuePair(now: now) { _ in }
        case .pending: throw Refusal(400, "authorization_pending")
        case .slowDown: throw Refusal(400, "slow_down")
        case .denied: throw Refusal(400, "access_denied")
        case .expired: throw Refusal(400, "expired_token")
        case .unknown: throw Refusal(400, "invalid_grant")
        }
    }

    // MARK: Revocation and metadata

    /// `POST /revoke` (RFC 7009): the `token` stops working, a refresh or an access token; `200`
    /// whether or not it was known (§2.2).
    func revoke(_ exchange: HTTPExchange) throws(Refusal) -> ServerResponse {
        guard case .form(let pairs) = try readFields(exchange), let token = FormURLEncoded.value("token", in: pairs) else {
            throw Refusal(400, "invalid_request")
        }
        state.withLock { state in
            if state.tokens.revoke(token) { state.stats.tokensRevoked += 1 }
        }
        return ServerResponse(status: 200)
    }

    /// `GET /.well-known/oauth-authorization-server` (RFC 8414): the issuer, this server's origin,
    /// and its endpoints.
    func metadata() -> ServerResponse {
        let issuer = origin.value
        return .json(200, .object([
            ("issuer", .string(issuer)),
            ("authorization_endpoint", .string(issuer + "/authorize")),
            ("token_endpoint", .string(issuer + "/tokens")),
            ("device_authorization_endpoint", .string(issuer + "/device_authorization")),
            ("revocation_endpoint", .string(issuer + "/revoke")),
            ("response_types_supported", .array([.string("code")])),
            ("grant_types_supported", .array([
                "authorization_code", "refresh_token", "client_credentials", "password", Self.deviceCodeGrant,
            ].map { .string($0) })),
            ("code_challenge_methods_supported", .array([.string("S256")])),
            ("token_endpoint_auth_methods_supported", .array(["none", "client_secret_basic", "client_secret_post"].map { .string($0) })),
        ]))
    }
}
