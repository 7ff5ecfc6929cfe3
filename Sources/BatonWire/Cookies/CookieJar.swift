import BatonSupport
import Foundation

/// The cookies an `HTTP1Transport` keeps, in memory, for its life: what the servers set, sent
/// back only where RFC 6265 allows, as URLSession's ephemeral configuration does.
///
/// - **Where they go.** A cookie set without `Domain` goes back to the host that set it and no
///   other (host-only). One with `Domain` also goes to that domain's subdomains, and is kept only
///   when the setting host is that domain or one of its subdomains (§5.1.3: `notevil.com` is no
///   subdomain of `evil.com`), when the domain is no public suffix by the Public Suffix List
///   compiled into Baton, private suffixes included (``PublicSuffixList``: `com`, `co.uk`,
///   `github.io`, `herokuapp.com`, `pages.dev`, whose tenants are separate sites; a `Domain`
///   naming the public suffix that is the host itself makes a host-only cookie, §5.3 step 5), and
///   when the host is no IP address (where `Domain` may only name the address itself, and makes
///   a host-only cookie). It goes only to paths under its `Path` (§5.1.4) and, when `Secure`,
///   only over https; a `Secure` cookie set over http is refused (RFC 6265bis §5.7), as are
///   `__Secure-` and `__Host-` cookies without what their prefix demands.
/// - **How long.** Until `Max-Age` (which wins) or `Expires`, else for the jar's life. A cookie
///   set again under the same name, domain and path replaces the old one (keeping its creation
///   time, §5.3); one set with an expiry in the past deletes it.
/// - **How many.** At most ``maximumCookiesPerSite`` per site (a registrable domain and all its
///   subdomains: `example.co.uk`, `alice.github.io`), that site's least recently used evicted
///   first, and ``maximumCookies`` in all, evicted from the site holding the most: one site,
///   however many subdomains or cookies it sets, cannot push out another site's cookies while it
///   holds more than that site (``Storage``). Each cookie is at most ``SetCookie/maximumSize``
///   bytes: a hostile server cannot grow the jar without bound.
package final class CookieJar: Sendable {
    /// The most cookies kept for one site: Firefox's and Chrome's 180, more than RFC 6265 §6.1's
    /// minimum of 50 per domain.
    package static let maximumCookiesPerSite = 180
    /// The most cookies kept in all: RFC 6265 §6.1's minimum, and Firefox's cap.
    package static let maximumCookies = 3000

    /// A kept cookie (RFC 6265 §5.3's fields, those that matter to a client running no scripts).
    package struct Cookie: Sendable {
        package var name: String
        package var value: String
        /// The host that set it (host-only), or the `Domain` it was set for.
        package var domain: String
        package var isHostOnly: Bool
        package var path: String
        package var isSecure: Bool
        package var isHTTPOnly: Bool
        /// `nil`: a session cookie, kept for the jar's life.
        package var expiry: Date?
        /// When it was first set, as a tick of the jar's clock: orders cookies of equal paths.
        package var creation: UInt64
        /// When it was last set or sent, a tick no other cookie has: the least recent is evicted first.
        package var lastAccess: UInt64

        package func isExpired(at now: Date) -> Bool { expiry.map { $0 <= now } ?? false }
    }

    private let state = Lock(Storage())

    /// An empty jar.
    package init() {}

    /// How many cookies the jar holds, expired ones not yet dropped included.
    package var count: Int { state.withLock(annotating: self) { $0.count } }

    /// Keeps the cookies of a response's `Set-Cookie` field values, received for a request to
    /// `url` at `now`; a value the rules refuse is ignored, the others kept.
    package func store(setCookieValues: [String], from url: URL, now: Date = Date()) {
        guard !setCookieValues.isEmpty, let host = Self.host(of: url) else { return }
        let isSecureScheme = url.scheme?.lowercased() == "https"
        let defaultPath = Self.defaultPath(of: url)
        let cookies = setCookieValues.compactMap {
            Self.cookie($0, host: host, isSecureScheme: isSecureScheme, defaultPath: defaultPath, now: now)
        }
        guard !cookies.isEmpty else { return }
        let sites = cookies.map { Self.site(of: $0.domain) }
        state.withLock(annotating: self) { state in
            for (cookie, site) in zip(cookies, sites) { state.keep(cookie, site: site, now: now) }
        }
    }

    /// The cookie that the `Set-Cookie` value `text` sets, received from `host` at `now`; `nil`
    /// when the rules refuse it.
    private static func cookie(_ text: String, host: String, isSecureScheme: Bool, defaultPath: String, now: Date) -> Cookie? {
        guard let set = SetCookie(text), isSecureScheme || !set.isSecure else { return nil }
        var domain = host
        var isHostOnly = true
        if let attribute = set.domain {
            let isIP = isIPAddress(host)
            let isPublic = isIP || PublicSuffixList.shared.isPublicSuffix(attribute)
            // §5.3 step 5: a public suffix (or an IP address) naming the host itself makes a
            // host-only cookie; any other is refused, or it would go to every tenant under it.
            if attribute != host || !isPublic {
                guard !isPublic, domainMatches(host, attribute) else { return nil }
                domain = attribute
                isHostOnly = false
            }
        }
        let path = set.path ?? defaultPath
        let name = set.name.lowercased()
        if name.hasPrefix("__secure-") || name.hasPrefix("__host-"), !set.isSecure { return nil }
        if name.hasPrefix("__host-"), set.domain != nil || path != "/" { return nil }
        return Cookie(name: set.name, value: set.value, domain: domain, isHostOnly: isHostOnly, path: path,
                      isSecure: set.isSecure, isHTTPOnly: set.isHTTPOnly, expiry: set.expiry(now: now),
                      creation: 0, lastAccess: 0)
    }

    /// The `Cookie` field value for a request to `url` at `now` (RFC 6265 §5.4): the cookies
    /// whose domain, path and `Secure` allow it, unexpired, longer paths first, then those set
    /// earlier; `nil` when there are none.
    package func cookieHeader(for url: URL, now: Date = Date()) -> String? {
        let cookies = cookies(for: url, now: now)
        guard !cookies.isEmpty else { return nil }
        return cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// The cookies to send with a request to `url` at `now`, in the order they go, each marked
    /// as used: ``cookieHeader(for:now:)`` without the joining.
    package func cookies(for url: URL, now: Date = Date()) -> [Cookie] {
        // Most APIs set no cookie: their requests pay for no URL parsing here.
        guard state.withLock(annotating: self, { $0.count > 0 }), let host = Self.host(of: url) else { return [] }
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
            domains.flatMap { domain in
                state.use(domain: domain, now: now) { cookie in
                    (!cookie.isHostOnly || domain == host) && (isSecureScheme || !cookie.isSecure) && Self.pathMatches(path, cookie.path)
                }
            }
        }
        matches.sort { ($0.path.utf8.count, $1.creation) > ($1.path.utf8.count, $0.creation) }
        return matches
    }

    /// Every cookie the jar holds, expired ones not yet dropped included, in no order: for tests.
    package var allCookies: [Cookie] {
        state.withLock(annotating: self) { $0.buckets.values.flatMap(\.cookies) }
    }

    /// The site `domain` belongs to, where the per-site cap applies: its registrable domain
    /// (`example.co.uk` for `www.example.co.uk`), or the name itself for an IP address and for a
    /// public suffix (a host-only cookie of `github.io` or `localhost`).
    package static func site(of domain: String) -> String {
        isIPAddress(domain) ? domain : PublicSuffixList.shared.registrableDomain(domain) ?? domain
    }

    // MARK: RFC 6265's matching rules

    /// The ``CanonicalHost`` of `url`, by name; `nil` when it has none it could be sent to, so a
    /// host that could be read as two is never given or set a cookie.
    package static func host(of url: URL) -> String? {
        (try? CanonicalHost(url))?.name
    }

    /// Whether `host` is an IP address: IPv6 (a colon), or IPv4 in any of the forms a URL
    /// parser takes (its last label a number, as in `127.1` or `0x7f.1`).
    package static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return true }
        guard let last = host.split(separator: ".").last else { return false }
        let digits = last.hasPrefix("0x") ? last.dropFirst(2) : last
        let allowed: ClosedRange<Character> = last.hasPrefix("0x") ? "0"..."f" : "0"..."9"
        return digits.allSatisfy { allowed.contains($0) && ($0 <= "9" || $0 >= "a") }
    }

    /// RFC 6265 §5.1.3: `host` is `domain`, or a name (not an IP address) ending in `.domain`.
    package static func domainMatches(_ host: String, _ domain: String) -> Bool {
        host == domain || !isIPAddress(host) && host.hasSuffix("." + domain)
    }

    /// The path of `url` as sent, `/` when empty.
    package static func requestPath(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        return path.isEmpty ? "/" : path
    }

    /// RFC 6265 §5.1.4: the default path of a cookie set by a request to `url`, its path up to
    /// (not including) the last `/`, or `/`.
    package static func defaultPath(of url: URL) -> String {
        let path = requestPath(of: url)
        guard path.hasPrefix("/"), let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }

    /// RFC 6265 §5.1.4: `path` is `cookiePath`, or below it at a `/`.
    package static func pathMatches(_ path: String, _ cookiePath: String) -> Bool {
        let request = Array(path.utf8), cookie = Array(cookiePath.utf8)
        guard request.starts(with: cookie) else { return false }
        return request.count == cookie.count || cookie.last == UInt8(ascii: "/") || request[cookie.count] == UInt8(ascii: "/")
    }
}
