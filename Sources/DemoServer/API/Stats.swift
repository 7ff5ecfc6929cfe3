extension DemoServer {
    /// What a demo server has counted since it started or was last reset: the body of
    /// `GET /_demo/stats`, and ``DemoServer/stats``.
    ///
    /// Decode it from the wire with the JSON names below (a client of the API that runs elsewhere
    /// can), or read it in the same process:
    ///
    /// ```swift
    /// let server = try DemoServer.start()
    /// // ... calls ...
    /// print(server.stats.tokenRefreshes)
    /// ```
    public struct Stats: Sendable, Hashable, Codable {
        /// `requests`: requests per route, keyed by method and route pattern, as in
        /// `"GET /orders/:id"`. Reading the stats, resetting and expiring tokens are not counted.
        public var requests: [String: Int] = [:]
        /// `logins`: successful password grants at `POST /tokens`.
        public var logins = 0
        /// `token_refreshes`: successful refresh-token grants at `POST /tokens` (a service's
        /// renewal by client credentials counts in ``clientCredentialsGrants`` instead).
        public var tokenRefreshes = 0
        /// `refresh_tokens_rejected`: refresh-token grants refused (unknown, used or revoked token).
        public var refreshTokensRejected = 0
        /// `code_exchanges`: authorization codes exchanged for tokens at `POST /tokens`.
        public var codeExchanges = 0
        /// `client_credentials_grants`: tokens issued to the demo service by the client credentials
        /// grant: its login and each renewal.
        public var clientCredentialsGrants = 0
        /// `device_authorizations`: device codes issued by `POST /device_authorization`.
        public var deviceAuthorizations = 0
        /// `device_polls`: polls of the token endpoint with a device code, answered or not.
        public var devicePolls = 0
        /// `tokens_revoked`: known tokens revoked by `POST /revoke`.
        public var tokensRevoked = 0
        /// `photos_stored`: photos stored by `POST /reviews/:id/photos`.
        public var photosStored = 0
        /// `malformed`: requests the HTTP layer refused before routing: malformed, too large, or
        /// incomplete when the connection timed out.
        public var malformed = 0
        /// `connections_accepted`: TCP connections accepted, so that a test can count how many a
        /// client opened (a client that keeps connections alive opens few).
        public var connectionsAccepted = 0
        /// `tls_handshakes`: TLS handshakes completed, on a server serving `https`.
        public var tlsHandshakes = 0
        /// `tls_server_names`: the host names clients asked for in their handshakes (SNI), with
        /// how many asked; a client connecting to an IP address sends none.
        public var tlsServerNames: [String: Int] = [:]
        /// `streams_started`: streamed responses begun (server-sent events, JSON lines), so that a
        /// test can count how many times a client connected to a stream, reconnections included.
        public var streamsStarted = 0
        /// `stream_elements_sent`: events and lines written to clients, over every stream.
        public var streamElementsSent = 0
        /// `bytes_sent`: every byte written to clients, over every connection: heads and bodies of
        /// whole, cut and streamed responses, and error responses; not those of the routes `requests`
        /// leaves out, so that reading the stats does not change them. Counted as each write
        /// begins (a write the client did not take whole then counts only what went), so that a
        /// client that has read a response finds it counted: a test can tell a resumed download
        /// from a new one.
        public var bytesSent = 0
        /// `not_modified`: `304 Not Modified` responses to conditional requests.
        public var notModified = 0
        /// `partial_responses`: `206 Partial Content` responses to range requests.
        public var partialResponses = 0
        /// `idempotent_replays`: responses sent again to a request repeating an `Idempotency-Key`
        /// (the work was not done again).
        public var idempotentReplays = 0

        /// The JSON names, snake_case as the rest of the API.
        enum CodingKeys: String, CodingKey {
            case requests, logins, malformed
            case tokenRefreshes = "token_refreshes"
            case refreshTokensRejected = "refresh_tokens_rejected"
            case codeExchanges = "code_exchanges"
            case clientCredentialsGrants = "client_credentials_grants"
            case deviceAuthorizations = "device_authorizations"
            case devicePolls = "device_polls"
            case tokensRevoked = "tokens_revoked"
            case photosStored = "photos_stored"
            case connectionsAccepted = "connections_accepted"
            case tlsHandshakes = "tls_handshakes"
            case tlsServerNames = "tls_server_names"
            case streamsStarted = "streams_started"
            case streamElementsSent = "stream_elements_sent"
            case bytesSent = "bytes_sent"
            case notModified = "not_modified"
            case partialResponses = "partial_responses"
            case idempotentReplays = "idempotent_replays"
        }

        /// All counts at zero.
        public init() {}

        /// The body of `GET /_demo/stats`, routes in alphabetical order so that it is predictable.
        var json: JSONValue {
            let routes = requests.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.integer($0.value)) }
            return .object([
                (CodingKeys.requests.rawValue, .object(routes)),
                (CodingKeys.logins.rawValue, .integer(logins)),
                (CodingKeys.tokenRefreshes.rawValue, .integer(tokenRefreshes)),
                (CodingKeys.refreshTokensRejected.rawValue, .integer(refreshTokensRejected)),
                (CodingKeys.codeExchanges.rawValue, .integer(codeExchanges)),
                (CodingKeys.clientCredentialsGrants.rawValue, .integer(clientCredentialsGrants)),
                (CodingKeys.deviceAuthorizations.rawValue, .integer(deviceAuthorizations)),
                (CodingKeys.devicePolls.rawValue, .integer(devicePolls)),
                (CodingKeys.tokensRevoked.rawValue, .integer(tokensRevoked)),
                (CodingKeys.photosStored.rawValue, .integer(photosStored)),
                (CodingKeys.malformed.rawValue, .integer(malformed)),
                (CodingKeys.connectionsAccepted.rawValue, .integer(connectionsAccepted)),
                (CodingKeys.tlsHandshakes.rawValue, .integer(tlsHandshakes)),
                (CodingKeys.tlsServerNames.rawValue, .object(tlsServerNames.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.integer($0.value)) })),
                (CodingKeys.streamsStarted.rawValue, .integer(streamsStarted)),
                (CodingKeys.streamElementsSent.rawValue, .integer(streamElementsSent)),
                (CodingKeys.bytesSent.rawValue, .integer(bytesSent)),
                (CodingKeys.notModified.rawValue, .integer(notModified)),
                (CodingKeys.partialResponses.rawValue, .integer(partialResponses)),
                (CodingKeys.idempotentReplays.rawValue, .integer(idempotentReplays)),
            ])
        }
    }
}
