/// Every route of the demo API, with its method, path pattern and whether it needs a token.
enum Route: CaseIterable, Sendable {
    case health, orderSearch, order, facility, createReview, review, createPhoto, photo, replacePhoto, book, user
    case tokens
    /// The authorization server beside the token endpoint: the code grant's page, the device
    /// grant's endpoints, revocation and metadata.
    case authorize, deviceAuthorization, deviceVerification, revoke, metadata
    case redirect, echo, stats, reset, expireTokens
    /// Streamed: an event stream, or JSON lines.
    case photoStates, orderLines, demoEvents, demoLines

    /// The method it answers; nil for "any method". HEAD is served by every GET route.
    var method: String? {
        switch self {
        case .health, .orderSearch, .order, .facility, .review, .photo, .book, .user, .stats, .authorize, .metadata: "GET"
        case .photoStates, .orderLines, .demoEvents, .demoLines: "GET"
        case .createReview, .createPhoto, .tokens, .reset, .expireTokens, .deviceAuthorization, .deviceVerification, .revoke: "POST"
        case .replacePhoto: "PUT"
        case .redirect, .echo: nil
        }
    }

    /// The path pattern, also the key of the route in `/_demo/stats`; `:name` is a positive id.
    var pattern: String {
        switch self {
        case .health: "/health"
        case .orderSearch: "/order_search"
        case .order: "/orders/:id"
        case .facility: "/facilities/:id"
        case .createReview: "/facilities/:facility_id/reviews"
        case .review: "/reviews/:id"
        case .createPhoto: "/reviews/:review_id/photos"
        case .photo, .replacePhoto: "/photos/:id"
        case .book: "/books/:id"
        case .user: "/users/:id"
        case .tokens: "/tokens"
        case .authorize: "/authorize"
        case .deviceAuthorization: "/device_authorization"
        case .deviceVerification: "/device"
        case .revoke: "/revoke"
        case .metadata: "/.well-known/oauth-authorization-server"
        case .redirect: "/_demo/redirect"
        case .echo: "/_demo/echo"
        case .stats: "/_demo/stats"
        case .reset: "/_demo/reset"
        case .expireTokens: "/_demo/expire-tokens"
        case .photoStates: "/reviews/:review_id/photos/states"
        case .orderLines: "/orders.ndjson"
        case .demoEvents: "/_demo/events"
        case .demoLines: "/_demo/lines"
        }
    }

    var requiresToken: Bool {
        switch self {
        case .health, .tokens, .redirect, .echo, .stats, .reset, .expireTokens, .demoEvents, .demoLines: false
        case .authorize, .deviceAuthorization, .deviceVerification, .revoke, .metadata: false
        default: true
        }
    }

    /// Whether its 200 responses to GET and HEAD carry validators (`ETag`, and `Last-Modified` when
    /// known) and honour conditional and range requests: the routes that read one resource or
    /// one search, whose responses a client may keep and check.
    var isResource: Bool {
        switch self {
        case .orderSearch, .order, .facility, .book, .user, .review, .photo: true
        default: false
        }
    }

    /// Whether it takes an `Idempotency-Key`: the routes that create or change something, where
    /// a retry of a response that was lost must not do it twice.
    var takesIdempotencyKey: Bool {
        switch self {
        case .createReview, .createPhoto, .replacePhoto: true
        default: false
        }
    }

    /// Whether `/_demo/stats` counts it. The introspection routes are left out so that reading the
    /// counts, or resetting them, does not change them.
    var isCounted: Bool {
        switch self {
        case .stats, .reset, .expireTokens: false
        default: true
        }
    }

    /// A route and the id its pattern captured (0 when the pattern has none).
    struct Match: Sendable, Equatable {
        var route: Route
        var id: Int
    }

    /// The route `method` and the raw (still percent-encoded) `path` ask for, nil when none does.
    static func match(method: String, path: String) -> Match? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for route in allCases {
            guard route.method == nil || route.method == method || (method == "HEAD" && route.method == "GET") else {
                continue
            }
            let parts = route.pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
            guard parts.count == segments.count else { continue }
            var id = 0
            var matched = true
            for (part, segment) in zip(parts, segments) {
                if part.hasPrefix(":") {
                    guard !segment.isEmpty, segment.utf8.allSatisfy({ $0.decimalDigitValue != nil }),
                          let value = Int(segment), value > 0
                    else { matched = false; break }
                    id = value
                } else if part != segment {
                    matched = false
                    break
                }
            }
            if matched { return Match(route: route, id: id) }
        }
        return nil
    }
}
