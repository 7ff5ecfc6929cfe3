/// `Idempotency-Key` on the routes that create or change something: a retry of a request whose
/// response was lost gets that response again instead of doing the work twice.
///
/// A key is met in two steps. On arrival, before the faults, the request takes the key if it is
/// free (see ``arrive(on:_:)``), so that another request with the same key meanwhile is refused
/// 409 until this one is answered. Then its route parses the request, and only then, knowing the
/// request's ``Fingerprint``, decides (``once(_:base:parse:commit:)``): a key already answered for
/// the same request sends that response again with `Idempotent-Replayed: true`; one answered for
/// another request is a 422; otherwise the route commits, and its response is remembered if it is
/// one a retry should get again (2xx, or 4xx but 409).
extension DemoAPI {
    /// What a request with a valid key holds once it has arrived.
    struct IdempotencyClaim: Sendable {
        var key: String
        /// Its reservation of the key; nil when the key already had a response when it came.
        var token: Int?
    }

    /// What a request's `Idempotency-Key` came to on arrival.
    enum KeyArrival {
        case claimed(IdempotencyClaim)
        case malformed
        /// Another request holds the key.
        case busy

        /// The claim the route goes on with, or the refusal: 400 for a malformed key, 409 for a
        /// busy one. Asked after the faults and authentication, which come first.
        func claim() throws(Refusal) -> IdempotencyClaim {
            switch self {
            case .claimed(let claim): return claim
            case .malformed: throw Refusal(400, IdempotencyKey.malformedMessage)
            case .busy: throw DemoAPI.keyInUse
            }
        }
    }

    /// The 409 for a request whose key another request holds.
    static let keyInUse = Refusal(
        409, "Idempotency-Key is in use by a request that is still being handled; send this one again once that one has been answered"
    )

    /// Meets the request's key, if its route takes one and it sent one: nil otherwise.
    func arrive(on route: Route, _ head: HTTPRequestHead) -> KeyArrival? {
        guard route.takesIdempotencyKey else { return nil }
        switch IdempotencyKey.parse(head.headers.values(IdempotencyKey.headerName)) {
        case .absent: return nil
        case .malformed: return .malformed
        case .key(let key):
            return switch state.withLock({ $0.idempotency.arrive(key) }) {
            case .reserved(let token): .claimed(IdempotencyClaim(key: key, token: token))
            case .answered: .claimed(IdempotencyClaim(key: key, token: nil))
            case .busy: .busy
            }
        }
    }

    /// Frees the claim's key if its request leaves without a response to remember.
    func release(_ claim: IdempotencyClaim) {
        guard let token = claim.token else { return }
        state.withLock { $0.idempotency.release(claim.key, token: token) }
    }

    /// Whether a response is one to send again to a retry: a success, or a refusal of the request
    /// itself (the same request would be refused the same way). Not a 5xx, which a retry may
    /// well get past, nor a 409, which says only that another request held the key.
    static func isRemembered(_ status: Int) -> Bool {
        (200..<300).contains(status) || ((400..<500).contains(status) && status != 409)
    }

    /// Handles a request that may carry a key: `parse` reads it (failing with the response to send)
    /// and gives what `commit` needs with the parts of its fingerprint; `commit` does the work.
    /// `base` names the request: method, route pattern and path id.
    ///
    /// Without a claim this is `commit(parse())`. With one, a request refused by `parse` has the
    /// refusal itself as its fingerprint, so that the same bad request again gets the same response.
    func once<Draft>(
        _ claim: IdempotencyClaim?, base: [String],
        parse: () throws(Refusal) -> (draft: Draft, fingerprint: [[UInt8]]),
        commit: (Draft) throws(Refusal) -> ServerResponse
    ) throws(Refusal) -> ServerResponse {
        guard let claim else { return try commit(parse().draft) }
        let parsed: Result<(draft: Draft, fingerprint: [[UInt8]]), Refusal>
        do throws(Refusal) {
            parsed = .success(try parse())
        } catch {
            parsed = .failure(error)
        }
        let parts: [[UInt8]] = switch parsed {
        case .success(let success): success.fingerprint
        case .failure(let refusal): [Array("refused \(refusal.response.status)".utf8), Array(refusal.response.body)]
        }
        let fingerprint = Fingerprint(base.map { Array($0.utf8) } + parts)
        switch state.withLock({ $0.idempotency.decide(claim.key, token: claim.token, fingerprint: fingerprint) }) {
        case .handle:
            break
        case .replay(var response):
            state.withLock { $0.stats.idempotentReplays += 1 }
            response.setHeader("Idempotent-Replayed", "true")
            return response
        case .conflict:
            throw Refusal(422, "Idempotency-Key \"\(claim.key)\" was used with another request; a different request needs a new key")
        case .busy:
            throw Self.keyInUse
        }
        let response: ServerResponse
        do throws(Refusal) {
            response = try commit(parsed.get().draft)
        } catch {
            response = error.response
        }
        if let token = claim.token, Self.isRemembered(response.status) {
            state.withLock { $0.idempotency.remember(claim.key, token: token, fingerprint: fingerprint, response: response) }
        }
        return response
    }
}
