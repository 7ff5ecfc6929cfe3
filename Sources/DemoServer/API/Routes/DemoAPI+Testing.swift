import BatonOpenSSL
/// The `/_demo/*` routes that tests use to see and steer the server.
extension DemoAPI {
    static let redirectStatuses: Set = [301, 302, 303, 307, 308]

    /// `/_demo/redirect?status=S&to=URL`, any method: status S with `Location: URL`, empty body.
    func redirect(_ head: HTTPRequestHead) throws(Refusal) -> ServerResponse {
        guard let query = FormURLEncoded.decode(head.query) else { throw Refusal(400, "query is not valid form data") }
        guard let status = FormURLEncoded.value("status", in: query).flatMap({ Int($0) }),
              Self.redirectStatuses.contains(status)
        else { throw Refusal(400, "status must be 301, 302, 303, 307 or 308") }
        // The target becomes a header value: control characters would let it forge header lines.
        guard let target = FormURLEncoded.value("to", in: query), !target.isEmpty,
              !target.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f })
        else { throw Refusal(400, "to must be a URL") }
        return ServerResponse(status: status, headers: [("Location", target)])
    }

    /// `/_demo/echo`, any method: what arrived, with header names lower-cased and repeated fields
    /// joined with ", ", and the body's size and SHA-256.
    func echo(_ exchange: HTTPExchange) -> ServerResponse {
        // In arrival order; the index keeps joining repeated fields linear in the header count.
        var names: [String] = []
        var values: [String: String] = [:]
        for (name, value) in exchange.head.headers.fields {
            let key = name.lowercased()
            if let earlier = values[key] {
                values[key] = earlier + ", " + value
            } else {
                names.append(key)
                values[key] = value
            }
        }
        let headers = names.map { ($0, JSONValue.string(values[$0] ?? "")) }
        var hasher = SHA256()
        guard exchange.body.forEachPiece({ hasher.update($0) }) else {
            return .message(500, "the request body could not be read back from disk")
        }
        return .json(200, .object([
            ("method", .string(exchange.head.method)),
            ("path", .string(exchange.head.path)),
            ("query", .string(exchange.head.query)),
            ("headers", .object(headers)),
            ("body_bytes", .integer(exchange.body.count)),
            ("body_sha256", .string(hasher.finalizeHex())),
        ]))
    }

    /// Back to the seed's data: no reviews, photos, tokens, fault counts or stats.
    func reset() -> ServerResponse {
        state.withLock { $0 = State(data: DemoData(seed: seed)) }
        bytesSent.withLock { $0 = 0 }
        return ServerResponse(status: 204)
    }

    func expireTokens() -> ServerResponse {
        state.withLock { $0.tokens.expireAccessTokens() }
        return ServerResponse(status: 204)
    }
}
