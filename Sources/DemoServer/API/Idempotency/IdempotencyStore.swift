/// The `Idempotency-Key` values a server has seen since it started or was last reset: for each,
/// either the request still being handled with it, or the request it was first used with (as a
/// fingerprint) and the response that request got.
///
/// At most ``limit`` answered keys are kept, the oldest forgotten first, so that clients sending a
/// new key with every request cannot grow the server's memory without bound.
///
/// Lives in ``DemoAPI/State``, behind its lock; a reset replaces it, forgetting every key. A
/// request that was handling a key when the reset came finds its reservation gone and remembers
/// nothing, so a reset really is a fresh start.
struct IdempotencyStore: Sendable {
    enum Entry: Sendable {
        /// A request holds the key; `token` tells that request's reservation from a later one.
        case handling(token: Int)
        case answered(fingerprint: Fingerprint, response: ServerResponse)
    }

    /// What a request finds when it arrives with a key.
    enum Arrival: Sendable, Equatable {
        /// The key was free: this request now holds it, with this token.
        case reserved(token: Int)
        /// Another request holds the key: this one is answered 409.
        case busy
        /// The key has a response: the route compares requests once it has parsed this one.
        case answered
    }

    /// What a request with a key does once its route has parsed it.
    enum Decision: Sendable {
        /// Handle it: the key is this request's, or was forgotten meanwhile (a reset).
        case handle
        /// Send the response the first request with the key got.
        case replay(ServerResponse)
        /// The key was first used with another request: 422.
        case conflict
        /// Another request holds the key (it was reset and taken again meanwhile): 409.
        case busy
    }

    /// The most answered keys kept: far more than a test or a session sends.
    static let limit = 10_000

    private var entries: [String: Entry] = [:]
    private var nextToken = 1
    /// Answered keys, oldest first, from `head` on: the order they are forgotten in.
    private var respondedOrder: [String] = []
    private var head = 0

    /// Reserves `key` for the arriving request, unless it is held or answered.
    mutating func arrive(_ key: String) -> Arrival {
        switch entries[key] {
        case .handling: return .busy
        case .answered: return .answered
        case nil:
            defer { nextToken += 1 }
            entries[key] = .handling(token: nextToken)
            return .reserved(token: nextToken)
        }
    }

    /// What the request holding `token` (nil: none, the key had a response when it came) does, now
    /// that its fingerprint is known.
    func decide(_ key: String, token: Int?, fingerprint: Fingerprint) -> Decision {
        switch entries[key] {
        case nil: .handle
        case .handling(let holder): holder == token ? .handle : .busy
        case .answered(let first, let response): first == fingerprint ? .replay(response) : .conflict
        }
    }

    /// Keeps the response of the request holding `token`, if it still holds the key.
    mutating func remember(_ key: String, token: Int, fingerprint: Fingerprint, response: ServerResponse) {
        guard case .handling(token) = entries[key] else { return }
        entries[key] = .answered(fingerprint: fingerprint, response: response)
        respondedOrder.append(key)
        while respondedOrder.count - head > Self.limit {
            let oldest = respondedOrder[head]
            head += 1
            if case .answered = entries[oldest] { entries[oldest] = nil }
        }
        if head > 1024, head * 2 > respondedOrder.count {
            respondedOrder.removeFirst(head)
            head = 0
        }
    }

    /// Frees the key if the request holding `token` still holds it without a response to keep (it
    /// was refused before its route, dropped, answered 5xx...), so that a retry is handled anew.
    mutating func release(_ key: String, token: Int) {
        guard case .handling(token) = entries[key] else { return }
        entries[key] = nil
    }
}
