import BatonLocking
import Foundation

/// The demo API (the README's "DemoServer" section) behind the HTTP layer: faults, authentication, routing and
/// the state every route reads and changes.
///
/// Called concurrently from every connection thread; all mutable state sits behind one lock, held
/// only for short bookkeeping, never while waiting or doing I/O.
final class DemoAPI: HTTPHandler {
    struct State: Sendable {
        var data: DemoData
        var tokens = TokenStore()
        var stats = DemoServer.Stats()
        /// Requests seen per exact `X-Demo-Fault` value, for `times=K`.
        var faultCounts: [String: Int] = [:]
        /// Requests that have reached a `barrier=N` fault, per exact `X-Demo-Fault` value.
        var barrierArrivals: [String: Int] = [:]
    }

    /// A refusal carrying the response to send, so handlers can `throw` their error answers.
    struct Refusal: Error {
        var response: ServerResponse

        init(_ response: ServerResponse) {
            self.response = response
        }

        init(_ status: Int, _ message: String) {
            response = .message(status, message)
        }
    }

    /// Form and JSON bodies are small; a larger one is refused before being read into memory.
    static let maxFieldsBodyBytes = 1 << 20
    static let garbageBody = Array("<html>this is not JSON {\"status\":".utf8)

    let seed: UInt64
    let tokenLifetime: Duration
    /// `expires_in` of a token response: the lifetime in whole seconds, rounded up.
    let expiresIn: Int
    let tokenStyle: TokenStyle
    /// The time token lifetimes are measured against.
    let tokenClock: @Sendable () -> ContinuousClock.Instant
    let state: Locked<State>

    init(
        seed: UInt64, tokenLifetime: Double, tokenStyle: TokenStyle = .demo,
        tokenClock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.tokenStyle = tokenStyle
        self.tokenClock = tokenClock
        self.seed = seed
        self.tokenLifetime = .milliseconds(Int64((tokenLifetime * 1000).rounded()))
        expiresIn = Int(tokenLifetime.rounded(.up))
        state = Locked(State(data: DemoData(seed: seed)))
    }

    func recordMalformedRequest() {
        state.withLock { $0.stats.malformed += 1 }
    }

    func recordConnection() {
        state.withLock { $0.stats.connectionsAccepted += 1 }
    }

    func recordStreamStarted() {
        state.withLock { $0.stats.streamsStarted += 1 }
    }

    func recordStreamElementsSent(_ count: Int) {
        state.withLock { $0.stats.streamElementsSent += count }
    }

    func recordHandshake(serverName: String?) {
        state.withLock { state in
            state.stats.tlsHandshakes += 1
            if let serverName { state.stats.tlsServerNames[serverName, default: 0] += 1 }
        }
    }

    func reply(to exchange: HTTPExchange) -> HTTPReply {
        let head = exchange.head
        let match = Route.match(method: head.method, path: head.path)
        if let match, match.route.isCounted {
            state.withLock { $0.stats.requests["\(head.method) \(match.route.pattern)", default: 0] += 1 }
        }
        // Faults come first: a test asking for a 503 gets it whatever else is wrong with the request.
        let faultHeader = head.headers[Fault.headerName]
        var fault: Fault?
        if let faultHeader {
            do {
                let parsed = try Fault.parse(faultHeader)
                if shouldApply(parsed, headerValue: faultHeader) { fault = parsed }
            } catch {
                return .respond(.message(400, error.message))
            }
        }
        if let fault, let faultHeader {
            if let size = fault.barrier, !passBarrier(size, headerValue: faultHeader, exchange) { return .drop }
            if let delay = fault.delay, !exchange.pause(delay) { return .drop }
            if fault.drop { return .drop }
            if let status = fault.status {
                return finish(.message(status, "injected"), fault: fault)
            }
            if fault.garbageBody {
                let garbage = ServerResponse(
                    status: 200, headers: [("Content-Type", "application/json; charset=utf-8")], body: Self.garbageBody
                )
                return finish(garbage, fault: fault)
            }
            if let size = fault.bodyBytes {
                let body = ServerResponse(
                    status: 200, headers: [("Content-Type", "application/json; charset=utf-8")], body: Self.paddedBody(size)
                )
                return finish(body, fault: fault)
            }
        }
        let response: ServerResponse
        do throws(Refusal) {
            // Everything under /_demo/ is open, known route or not, so tests can always reach it.
            if match?.route.requiresToken ?? !head.path.hasPrefix("/_demo/") { try authenticate(head) }
            guard let match else { throw Refusal(404, "not_found") }
            switch try route(match, exchange) {
            case .whole(let whole): response = whole
            case .streamed(let stream): return finish(stream, fault: fault)
            }
        } catch {
            response = error.response
        }
        return finish(response, fault: fault)
    }

    /// A JSON document of exactly `size` bytes: a string of `x`s (spaces below two bytes, which
    /// JSON reads as nothing).
    static func paddedBody(_ size: Int) -> [UInt8] {
        guard size >= 2 else { return [UInt8](repeating: 0x20, count: size) }
        var body = [UInt8](repeating: UInt8(ascii: "x"), count: size)
        body[0] = UInt8(ascii: "\"")
        body[size - 1] = UInt8(ascii: "\"")
        return body
    }

    /// Counts the request against `times` and says whether the fault applies to it.
    private func shouldApply(_ fault: Fault, headerValue: String) -> Bool {
        guard let times = fault.times else { return true }
        let seen = state.withLock { state in
            state.faultCounts[headerValue, default: 0] += 1
            return state.faultCounts[headerValue, default: 0]
        }
        return seen <= times
    }

    /// How often a request held at a barrier looks whether its group is complete; between looks
    /// it watches its connection, so a client hanging up or the server stopping ends the wait.
    static let barrierPollInterval = Duration.milliseconds(20)

    /// Holds the request until `size` requests with this header value have arrived (counting it),
    /// the whole group of `size` it belongs to; false when the wait is abandoned: the client hung
    /// up, the server is stopping, or ``Fault/maxDelay`` passed.
    private func passBarrier(_ size: Int, headerValue: String, _ exchange: HTTPExchange) -> Bool {
        let ticket = state.withLock { state in
            defer { state.barrierArrivals[headerValue, default: 0] += 1 }
            return state.barrierArrivals[headerValue, default: 0]
        }
        let groupComplete = (ticket / size + 1) * size
        let deadline = ContinuousClock.now + Fault.maxDelay
        while state.withLock({ $0.barrierArrivals[headerValue, default: 0] }) < groupComplete {
            guard ContinuousClock.now < deadline, exchange.pause(Self.barrierPollInterval) else { return false }
        }
        return true
    }

    /// The parts of a fault that change a response rather than replace it.
    func finish(_ response: ServerResponse, fault: Fault?) -> HTTPReply {
        var response = response
        guard let fault else { return .respond(response) }
        if let retryAfter = fault.retryAfter { response.setHeader("Retry-After", String(retryAfter)) }
        if let contentType = fault.contentType { response.setHeader("Content-Type", contentType) }
        if let challenge = fault.challenge { response.setHeader("WWW-Authenticate", "\(challenge) realm=\"demo\"") }
        if fault.gzip, !response.forbidsBody {
            response.body = Gzip.compress(response.body)
            response.setHeader("Content-Encoding", "gzip")
        }
        if let stallAfter = fault.stallAfter { return .respond(response, cut: Cut(after: stallAfter, hold: Fault.maxDelay)) }
        return .respond(response, cut: fault.dropAfter.map { Cut(after: $0, hold: nil) })
    }

    /// RFC 6750 §3: no credentials get a bare challenge, bad credentials an `invalid_token` one.
    private func authenticate(_ head: HTTPRequestHead) throws(Refusal) {
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

    /// What a route answers: a whole response, or a streamed one.
    enum Answer {
        case whole(ServerResponse)
        case streamed(StreamedResponse)
    }

    private func route(_ match: Route.Match, _ exchange: HTTPExchange) throws(Refusal) -> Answer {
        switch match.route {
        case .health: .whole(.json(200, .object([("status", .string("ok"))])))
        case .orderSearch: try .whole(searchOrders(exchange.head))
        case .order: try .whole(order(match.id))
        case .facility: try .whole(found(DemoData.facilityJSON(match.id)))
        case .createReview: try .whole(createReview(facilityID: match.id, exchange))
        case .review: try .whole(review(match.id))
        case .createPhoto: try .whole(createPhoto(reviewID: match.id, exchange))
        case .photo: try .whole(photo(match.id))
        case .book: try .whole(found(DemoData.bookJSON(match.id)))
        case .user: try .whole(found(DemoData.userJSON(match.id)))
        case .tokens: try .whole(issueTokens(exchange))
        case .redirect: try .whole(redirect(exchange.head))
        case .echo: .whole(echo(exchange))
        case .stats: .whole(.json(200, state.withLock { $0.stats.json }))
        case .reset: .whole(reset())
        case .expireTokens: .whole(expireTokens())
        case .photoStates: try .streamed(photoStates(reviewID: match.id, exchange.head))
        case .orderLines: .streamed(orderLines())
        case .demoEvents: try .streamed(demoStream(exchange.head, unit: .events))
        case .demoLines: try .streamed(demoStream(exchange.head, unit: .lines))
        }
    }

    func found(_ value: JSONValue?) throws(Refusal) -> ServerResponse {
        guard let value else { throw Refusal(404, "not_found") }
        return .json(200, value)
    }

    // MARK: - Request bodies

    /// A form or JSON body, the two types the API's POST routes take.
    enum Fields {
        case form([(name: String, value: String)])
        case json(JSONValue)
    }

    /// The lower-cased media type of the request body, without parameters.
    func mediaType(_ head: HTTPRequestHead) -> String? {
        head.headers["Content-Type"].flatMap { HeaderParameters.parse($0)?.value }
    }

    /// The body as form or JSON fields: 415 for another type, 413 past 1 MiB, 422 when it does not
    /// parse (or JSON that is not an object).
    func readFields(_ exchange: HTTPExchange) throws(Refusal) -> Fields {
        let type = mediaType(exchange.head)
        guard type == "application/x-www-form-urlencoded" || type == "application/json" else {
            throw Refusal(415, "body must be application/x-www-form-urlencoded or application/json")
        }
        guard let bytes = exchange.body.bytes(limit: Self.maxFieldsBodyBytes) else {
            throw Refusal(413, "form and JSON bodies are limited to 1 MiB")
        }
        if type == "application/json" {
            guard let value = JSONParser.parse(bytes) else { throw Refusal(422, "body is not valid JSON") }
            guard case .object = value else { throw Refusal(422, "body must be a JSON object") }
            return .json(value)
        }
        guard let text = String(bytes: bytes, encoding: .utf8), let pairs = FormURLEncoded.decode(text) else {
            throw Refusal(422, "body is not valid form data")
        }
        return .form(pairs)
    }
}
