import BatonSupport
import Foundation

/// The demo API (the DemoServer article of Baton's documentation) behind the HTTP layer: faults, authentication, routing and
/// the state every route reads and changes.
///
/// Called concurrently from every connection thread; all mutable state sits behind one lock, held
/// only for short bookkeeping, never while waiting or doing I/O.
final class DemoAPI: HTTPHandler {
    struct State: Sendable {
        var data: DemoData
        var tokens = TokenStore()
        /// Authorization and device codes waiting for their next step.
        var grants = GrantStore()
        var stats = DemoServer.Stats()
        /// Requests seen per exact `X-Demo-Fault` value, for `times=K`.
        var faultCounts: [String: Int] = [:]
        /// Requests that have reached a `barrier=N` fault, per exact `X-Demo-Fault` value.
        var barrierArrivals: [String: Int] = [:]
        /// The `Idempotency-Key` values seen, and what became of their requests.
        var idempotency = IdempotencyStore()
    }

    /// A refusal carrying the response to send, so handlers can `throw` their error responses.
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
    /// How long a device must wait between polls of the device grant.
    let devicePollInterval: Duration
    /// The time token lifetimes are measured against.
    let tokenClock: @Sendable () -> ContinuousClock.Instant
    let state: Locked<State>
    /// The server's own origin, as in `http://127.0.0.1:8080`: the issuer of its metadata, and
    /// the address of its device verification page. Set once the port is known.
    let origin = Locked("")
    /// `bytes_sent`, under a lock of its own: it is counted at every write of every connection,
    /// which would otherwise wait on the lock every request takes.
    let bytesSent = Locked(0)

    init(
        seed: UInt64, tokenLifetime: Double, tokenStyle: TokenStyle = .demo,
        tokenClock: @escaping @Sendable () -> ContinuousClock.Instant = { .now }, devicePollInterval: Duration = .seconds(5)
    ) {
        self.devicePollInterval = devicePollInterval
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

    func recordBytesSent(_ count: Int) {
        bytesSent.withLock { $0 += count }
    }

    /// The stats, with the bytes sent, which are counted apart (see ``bytesSent``).
    var stats: DemoServer.Stats {
        var stats = state.withLock { $0.stats }
        stats.bytesSent = bytesSent.value
        return stats
    }

    /// The responses of the routes the stats leave out of `requests` (reading, resetting the stats,
    /// expiring tokens) are left out of `bytes_sent` too: `GET /_demo/stats` then reports what
    /// ``DemoServer/stats`` reads after it, and a test's own reading costs nothing.
    func countsBytesSent(answering head: HTTPRequestHead) -> Bool {
        // Only routes under /_demo/ are left out: others need no second match.
        guard head.path.hasPrefix("/_demo/") else { return true }
        return Route.match(method: head.method, path: head.path)?.route.isCounted ?? true
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
        // A key is taken before the faults, so that a request a fault holds (`delay`, `barrier`)
        // holds its key as a slow first attempt would: another with the same key meanwhile is a 409.
        let arrival = match.flatMap { arrive(on: $0.route, head) }
        defer { if case .claimed(let claim) = arrival { release(claim) } }
        // Faults come first: a test asking for a 503 gets it whatever else is wrong with the request.
        let fault: Fault?
        switch applyFaults(exchange) {
        case .done(let reply): return reply
        case .proceed(let proceeding): fault = proceeding
        }
        let response: ServerResponse
        do throws(Refusal) {
            // An unknown route is a 404 whatever the credentials: a typo in a path must not read
            // as a failed login.
            guard let match else { throw Refusal(404, "not_found") }
            if match.route.requiresToken { try authenticate(head) }
            switch try route(match, exchange, claim: arrival?.claim()) {
            case .whole(let whole): response = match.route.isResource ? resourceResponse(whole, to: head) : whole
            case .streamed(let stream): return finish(stream, fault: fault)
            }
        } catch {
            response = error.response
        }
        return finish(response, fault: fault)
    }

    /// A resource's response with its validators, and the 304, 206 or 416 its request's conditions
    /// make of a 200 to GET or HEAD (see ``ConditionalResponse``), counted in the stats.
    private func resourceResponse(_ response: ServerResponse, to head: HTTPRequestHead) -> ServerResponse {
        guard response.status == 200, head.method == "GET" || head.method == "HEAD" else { return response }
        let answer = ConditionalResponse.answer(ResourceValidators.adding(to: response), to: head, now: DateHeader.seconds())
        switch answer.status {
        case 304: state.withLock { $0.stats.notModified += 1 }
        case 206: state.withLock { $0.stats.partialResponses += 1 }
        default: break
        }
        return answer
    }

    /// What a route answers: a whole response, or a streamed one.
    enum Answer {
        case whole(ServerResponse)
        case streamed(StreamedResponse)
    }

    private func route(_ match: Route.Match, _ exchange: HTTPExchange, claim: IdempotencyClaim?) throws(Refusal) -> Answer {
        switch match.route {
        case .health: .whole(.json(200, .object([("status", .string("ok"))])))
        case .orderSearch: try .whole(searchOrders(exchange.head))
        case .order: try .whole(order(match.id))
        case .facility: try .whole(found(DemoData.facilityJSON(match.id)))
        case .createReview: try .whole(createReview(facilityID: match.id, exchange, claim: claim))
        case .review: try .whole(review(match.id))
        case .createPhoto: try .whole(createPhoto(reviewID: match.id, exchange, claim: claim))
        case .photo: try .whole(photo(match.id, exchange.head))
        case .replacePhoto: try .whole(replacePhoto(match.id, exchange, claim: claim))
        case .book: try .whole(found(DemoData.bookJSON(match.id)))
        case .user: try .whole(found(DemoData.userJSON(match.id)))
        case .tokens: try .whole(issueTokens(exchange))
        case .authorize: try .whole(authorize(query: exchange.head.query))
        case .deviceAuthorization: try .whole(authorizeDevice(exchange))
        case .deviceVerification: try .whole(verifyDevice(exchange))
        case .revoke: try .whole(revoke(exchange))
        case .metadata: .whole(metadata())
        case .redirect: try .whole(redirect(exchange.head))
        case .echo: .whole(echo(exchange))
        case .stats: .whole(.json(200, stats.json))
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
}
