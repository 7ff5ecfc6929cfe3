/// Bearer-token authentication of the routes that need a token.
extension DemoAPI {
    /// RFC 6750 §3: no credentials get a bare challenge, bad credentials an `invalid_token` one.
    func authenticate(_ head: HTTPRequestHead) throws(Refusal) {
        let credentials = head.headers["Authorization"] ?? ""
        let parts = credentials.split(separator: " ", maxSplits: 1)
        let strict = tokenStyle != .demo
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            if strict { throw Refusal(ServerResponse(status: 401, headers: [("WWW-Authenticate", "Bearer realm=\"demo\"")])) }
            throw Refusal(.message(401, "unauthorized", headers: [("WWW-Authenticate", "Bearer")]))
        }
        let token = parts[1].trimmingOWS()
        let now = tokenClock()
        guard state.withLock({ $0.tokens.check(access: token, now: now) }) == .valid else {
            if strict {
                let challenge = "Bearer realm=\"demo\", error=\"invalid_token\", error_description=\"The access token expired\""
                throw Refusal(ServerResponse(status: 401, headers: [("WWW-Authenticate", challenge)]))
            }
            throw Refusal(.message(401, "invalid_token", headers: [("WWW-Authenticate", "Bearer error=\"invalid_token\"")]))
        }
    }
}
