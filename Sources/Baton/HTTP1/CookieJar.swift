import BatonLocking
import Foundation

/// The cookies an ``HTTP1Transport`` keeps, in memory, for its life: what the servers set, sent
/// back only where RFC 6265 allows, as URLSession's ephemeral configuration does.
///
/// - **Where they go.** A cookie set without `Domain` goes back to the host that set it and no
///   other (host-only). One with `Domain` also goes to that domain's subdomains, and is kept only
///   when the setting host is that domain or one of its subdomains (§5.1.3: `notevil.com` is no
///   subdomain of `evil.com`), when the domain is no public suffix the jar can tell cheaply (one
///   without a dot, such as `com`, or a `co.uk`-like pair of a two-letter country and a generic
///   second level), and when the host is no IP address (where `Domain` may only name the
///   address itself). It goes only to paths under its `Path` (§5.1.4) and, when `Secure`, only
///   over https; a `Secure` cookie set over http is refused (RFC 6265bis §5.7), as are
///   `__Secure-` and `__Host-` cookies without what their prefix demands.
/// - **How long.** Until `Max-Age` (which wins) or `Expires`, else for the jar's life. A cookie
///   set again under the same name, domain and path replaces the old one (keeping its creation
///   time, §5.3); one set with an expiry in the past deletes it.
/// - **How many.** At most ``maximumCookiesPerDomain`` per domain and ``maximumCookies`` in all
///   (RFC 6265 §6.1's minimums), the least recently used evicted first, each at most
///   ``SetCookie/maximumSize`` bytes: a hostile server cannot grow the jar without bound.
final class CookieJar: Sendable {
    /// The most cookies kept for one domain (a host-only cookie's host, or a `Domain`).
    static let maximumCookiesPerDomain = 50
    /// The most cookies kept in all.
    static let maximumCookies = 3000

    /// A kept cookie (RFC 6265 §5.3's fields, those that matter to a client running no scripts).
    struct Cookie: Sendable {
        var name: String
        var value: String
        /// The host that set it (host-only), or the `Domain` it was set for.
        var domain: String
        var isHostOnly: Bool
        var path: String
        var isSecure: Bool
        var isHTTPOnly: Bool
        /// `nil`: a session cookie, kept for the jar's life.
        var expiry: Date?
        /// When it was first set, as a tick of the jar's clock: orders cookies of equal paths.
        var creation: UInt64
        /// When it was last set or sent, a tick no other cookie has: the least recent is evicted first.
        var lastAccess: UInt64

        func isExpired(at now: Date) -> Bool { expiry.map { $0 <= now } ?? false }
    }

    private struct State {
        /// The cookies by their domain field.
        var cookies: [String: [Cookie]] = [:]
        var count = 0
        /// A counter, not a clock: every tick is later than the last, however fast they come.
        var clock: UInt64 = 0

        mutating func tick() -> UInt64 {
            clock += 1
            return clock
        }

        /// Puts `bucket` back as the cookies of `domain`, keeping the count.
        mutating func set(_ bucket: [Cookie], for domain: String) {
            count += bucket.count - (cookies[domain]?.count ?? 0)
            cookies[domain] = bucket.isEmpty ? nil : bucket
        }

        /// Drops the expired cookies, then the least recently used, until `limit` are left: one
        /// pass and one sort, however many go.
        mutating func evict(downTo limit: Int, now: Date) {
            var uses: [(lastAccess: UInt64, domain: String)] = []
            for (domain, bucket) in cookies {
                let kept = bucket.filter { !$0.isExpired(at: now) }
                if kept.count != bucket.count { set(kept, for: domain) }
                uses += kept.map { ($0.lastAccess, domain) }
            }
            guard count > limit else { return }
            var evicted: [String: Set<UInt64>] = [:]
            for use in uses.sorted(by: { $0.lastAccess < $1.lastAccess }).prefix(count - limit) {
                evicted[use.domain, default: []].insert(use.lastAccess)
            }
            for (domain, ticks) in evicted {
                set(cookies[domain, default: []].filter { !ticks.contains($0.lastAccess) }, for: domain)
            }
        }
    }

    private let state = Lock(State())

    /// An empty jar.
    init() {}

    /// How many cookies the jar holds, expired ones not yet dropped included.
    var count: Int { state.withLock(annotating: self) { $0.count } }

    /// Keeps the cookies of an answer's `Set-Cookie` field values, received for a request to
    /// `url` at `now`; a value the rules refuse is ignored, the others kept.
    func store(setCookieValues: [String], from url: URL, now: Date = Date()) {
        guard !setCookieValues.isEmpty, let host = Self.host(of: url) else { return }
        let isSecureScheme = url.scheme?.lowercased() == "https"
        let defaultPath = Self.defaultPath(of: url)
        let isIP = Self.isIPAddress(host)
        let cookies: [Cookie] = setCookieValues.compactMap { text in
            guard let set = SetCookie(text), isSecureScheme || !set.isSecure else { return nil }
            var domain = host
            var isHostOnly = true
            if let attribute = set.domain, attribute != host || !(isIP || Self.isPublicSuffix(attribute)) {
                guard !isIP, !Self.isPublicSuffix(attribute), Self.domainMatches(host, attribute) else { return nil }
                domain = attribute
                isHostOnly = false
            }
            let path = set.path ?? defaultPath
            let name = set.name.lowercased()
            if name.hasPrefix("__secure-") || name.hasPrefix("__host-"), !set.isSecure { return nil }
            if name.hasPrefix("__host-"), set.domain != nil || path != "/" { return nil }
            return Cookie(name: set.name, value: set.value, domain: domain, isHostOnly: isHostOnly, path: path,
                          isSecure: set.isSecure, isHTTPOnly: set.isHTTPOnly, expiry: set.expiry(now: now),
                          creation: 0, lastAccess: 0)
        }
        guard !cookies.isEmpty else { return }
        state.withLock(annotating: self) { state in
            for var cookie in cookies {
                var bucket = state.cookies[cookie.domain] ?? []
                bucket.removeAll { $0.isExpired(at: now) }
                cookie.creation = state.tick()
                cookie.lastAccess = cookie.creation
                if let old = bucket.firstIndex(where: { $0.name == cookie.name && $0.path == cookie.path }) {
                    cookie.creation = bucket[old].creation
                    bucket.remove(at: old)
                }
                if !cookie.isExpired(at: now) { bucket.append(cookie) }
                while bucket.count > Self.maximumCookiesPerDomain {
                    bucket.remove(at: Self.leastRecentlyUsed(in: bucket))
                }
                state.set(bucket, for: cookie.domain)
            }
            if state.count > Self.maximumCookies { state.evict(downTo: Self.maximumCookies, now: now) }
        }
    }

    /// The `Cookie` field value for a request to `url` at `now` (RFC 6265 §5.4): the cookies
    /// whose domain, path and `Secure` allow it, unexpired, longer paths first, then those set
    /// earlier; `nil` when there are none.
    func cookieHeader(for url: URL, now: Date = Date()) -> String? {
        // Most APIs set no cookie: their requests pay for no URL parsing here.
        guard state.withLock(annotating: self, { $0.count > 0 }), let host = Self.host(of: url) else { return nil }
        let isSecureScheme = url.scheme?.lowercased() == "https"
        let path = Self.requestPath(of: url)
        // The host, and every domain it is a subdomain of.
        var domains = [host]
        if !Self.isIPAddress(host) {
            var rest = host[...]
            while let dot = rest.firstIndex(of: ".") {
                rest = rest[rest.index(after: dot)...]
                if !rest.isEmpty { domains.append(String(rest)) }
            }
        }
        var matches: [Cookie] = state.withLock(annotating: self) { state in
            var matches: [Cookie] = []
            for domain in domains {
                guard var bucket = state.cookies[domain] else { continue }
                bucket.removeAll { $0.isExpired(at: now) }
                for index in bucket.indices {
                    let cookie = bucket[index]
                    guard !cookie.isHostOnly || domain == host, isSecureScheme || !cookie.isSecure,
                          Self.pathMatches(path, cookie.path) else { continue }
                    bucket[index].lastAccess = state.tick()
                    matches.append(cookie)
                }
                state.set(bucket, for: domain)
            }
            return matches
        }
        guard !matches.isEmpty else { return nil }
        matches.sort { ($0.path.utf8.count, $1.creation) > ($1.path.utf8.count, $0.creation) }
        return matches.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    // MARK: RFC 6265's matching rules

    /// The position of the cookie least recently set or sent in a non-empty `bucket`.
    private static func leastRecentlyUsed(in bucket: [Cookie]) -> Int {
        bucket.indices.min { bucket[$0].lastAccess < bucket[$1].lastAccess }!
    }

    /// The ``CanonicalHost`` of `url`, by name; `nil` when it has none it could be sent to, so a
    /// host that could be read as two is never given or set a cookie.
    static func host(of url: URL) -> String? {
        (try? CanonicalHost(url))?.name
    }

    /// Whether `host` is an IP address: IPv6 (a colon), or IPv4 in any of the forms a URL
    /// parser takes (its last label a number, as in `127.1` or `0x7f.1`).
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        guard let last = host.split(separator: ".").last else { return false }
        let digits = last.hasPrefix("0x") ? last.dropFirst(2) : last
        let allowed: ClosedRange<Character> = last.hasPrefix("0x") ? "0"..."f" : "0"..."9"
        return digits.allSatisfy { allowed.contains($0) && ($0 <= "9" || $0 >= "a") }
    }

    /// Whether `domain` is a public suffix as far as the jar can tell without a list: no dot
    /// (`com`, `localhost`), or a two-letter country under a generic second level (`co.uk`).
    static func isPublicSuffix(_ domain: String) -> Bool {
        let labels = domain.split(separator: ".")
        if labels.count < 2 { return true }
        return labels.count == 2 && labels[1].count == 2 && ["ac", "co", "com", "edu", "gov", "net", "org"].contains(labels[0])
    }

    /// RFC 6265 §5.1.3: `host` is `domain`, or a name (not an IP address) ending in `.domain`.
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        host == domain || !isIPAddress(host) && host.hasSuffix("." + domain)
    }

    /// The path of `url` as sent, `/` when empty.
    static func requestPath(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        return path.isEmpty ? "/" : path
    }

    /// RFC 6265 §5.1.4: the default path of a cookie set by a request to `url`, its path up to
    /// (not including) the last `/`, or `/`.
    static func defaultPath(of url: URL) -> String {
        let path = requestPath(of: url)
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// RFC 6265 §5.1.4: `path` is `cookiePath`, or below it at a `/`.
    static func pathMatches(_ path: String, _ cookiePath: String) -> Bool {
        let request = Array(path.utf8), cookie = Array(cookiePath.utf8)
        guard request.starts(with: cookie) else { return false }
        return request.count == cookie.count || cookie.last == UInt8(ascii: "/") || request[cookie.count] == UInt8(ascii: "/")
    }
}
