import Foundation

extension CookieJar {
    /// The cookies of a jar, behind its lock: by domain, where a request looks them up, and
    /// counted by site (registrable domain), where the caps apply.
    ///
    /// It keeps at most ``CookieJar/maximumCookiesPerSite`` for one site, evicting that site's
    /// least recently used first, so that one site's many subdomains (or names) crowd out only
    /// its own cookies. Past ``CookieJar/maximumCookies`` in all it evicts from the site holding
    /// the most cookies (of equal sites, the one whose least recently used cookie is the oldest),
    /// its least recently used: a site loses cookies to the total cap only while no other site
    /// holds more. Expired cookies go before any of these.
    package struct Storage {
        /// The cookies of one domain field, all of one site.
        package struct Bucket {
            package var site: String
            package var cookies: [Cookie] = []
        }

        /// How many cookies one site holds, under which domain fields, and when the first may expire.
        package struct Site {
            package var count = 0
            package var domains: Set<String> = []
            /// No later than the earliest expiry of its cookies: until then none has expired, and
            /// a full site is spared a pass over its domains.
            package var nextExpiry = Date.distantFuture
        }

        /// The cookies by their domain field.
        package private(set) var buckets: [String: Bucket] = [:]
        /// How many cookies each site holds, and under which domains.
        private var sites: [String: Site] = [:]
        /// How many cookies there are, expired ones not yet dropped included.
        package private(set) var count = 0
        /// A counter, not a clock: every tick is later than the last, however fast they come.
        private var clock: UInt64 = 0

        /// How many cookies `site` holds.
        package func count(ofSite site: String) -> Int { sites[site]?.count ?? 0 }

        /// Keeps `cookie`, of `site`, in place of the cookie of the same name, domain and path,
        /// whose creation it takes; an expired `cookie` only removes that one. Then evicts down
        /// to the caps.
        package mutating func keep(_ cookie: Cookie, site: String, now: Date) {
            var cookie = cookie
            // A domain's cookies stay counted under the site they were first counted under.
            let site = buckets[cookie.domain]?.site ?? site
            var cookies = buckets[cookie.domain]?.cookies ?? []
            cookies.removeAll { $0.isExpired(at: now) }
            cookie.creation = tick()
            cookie.lastAccess = cookie.creation
            if let old = cookies.firstIndex(where: { $0.name == cookie.name && $0.path == cookie.path }) {
                cookie.creation = cookies[old].creation
                cookies.remove(at: old)
            }
            if !cookie.isExpired(at: now) { cookies.append(cookie) }
            set(cookies, domain: cookie.domain, site: site)
            if count(ofSite: site) > CookieJar.maximumCookiesPerSite {
                dropExpired(ofSite: site, now: now)
                while count(ofSite: site) > CookieJar.maximumCookiesPerSite, evictLeastRecentlyUsed(ofSite: site) {}
            }
            if count > CookieJar.maximumCookies {
                for site in Array(sites.keys) { dropExpired(ofSite: site, now: now) }
                while count > CookieJar.maximumCookies, let site = largestSite(), evictLeastRecentlyUsed(ofSite: site) {}
            }
        }

        /// The unexpired cookies of `domain` that `isSent` takes, each marked as used now.
        package mutating func use(domain: String, now: Date, where isSent: (Cookie) -> Bool) -> [Cookie] {
            guard let bucket = buckets[domain] else { return [] }
            var cookies = bucket.cookies.filter { !$0.isExpired(at: now) }
            var used: [Cookie] = []
            for index in cookies.indices where isSent(cookies[index]) {
                cookies[index].lastAccess = tick()
                used.append(cookies[index])
            }
            set(cookies, domain: domain, site: bucket.site)
            return used
        }

        private mutating func tick() -> UInt64 {
            clock += 1
            return clock
        }

        /// Puts `cookies` in place of those of `domain`, keeping the counts and the site's domains.
        private mutating func set(_ cookies: [Cookie], domain: String, site: String) {
            let change = cookies.count - (buckets[domain]?.cookies.count ?? 0)
            count += change
            buckets[domain] = cookies.isEmpty ? nil : Bucket(site: site, cookies: cookies)
            // Changed in place: a copy of the record would copy its set of domains.
            sites[site, default: Site()].count += change
            if let expiry = cookies.lazy.compactMap(\.expiry).min(), expiry < sites[site, default: Site()].nextExpiry {
                sites[site, default: Site()].nextExpiry = expiry
            }
            if cookies.isEmpty { sites[site]?.domains.remove(domain) } else { sites[site, default: Site()].domains.insert(domain) }
            if sites[site]?.count == 0 { sites[site] = nil }
        }

        private mutating func dropExpired(ofSite site: String, now: Date) {
            guard let record = sites[site], record.nextExpiry <= now else { return }
            var nextExpiry = Date.distantFuture
            for domain in record.domains {
                guard let bucket = buckets[domain] else { continue }
                let kept = bucket.cookies.filter { !$0.isExpired(at: now) }
                if kept.count != bucket.cookies.count { set(kept, domain: domain, site: site) }
                nextExpiry = kept.lazy.compactMap(\.expiry).reduce(nextExpiry, min)
            }
            sites[site]?.nextExpiry = nextExpiry
        }

        /// The least recently used cookie of `site`: its domain and position; `nil` when it has none.
        private func leastRecentlyUsed(ofSite site: String) -> (domain: String, index: Int, lastAccess: UInt64)? {
            var oldest: (domain: String, index: Int, lastAccess: UInt64)?
            for domain in sites[site]?.domains ?? [] {
                for (index, cookie) in (buckets[domain]?.cookies ?? []).enumerated()
                where cookie.lastAccess < oldest?.lastAccess ?? .max {
                    oldest = (domain, index, cookie.lastAccess)
                }
            }
            return oldest
        }

        /// Evicts the least recently used cookie of `site`; `false` when it has none.
        private mutating func evictLeastRecentlyUsed(ofSite site: String) -> Bool {
            guard let oldest = leastRecentlyUsed(ofSite: site), var cookies = buckets[oldest.domain]?.cookies else { return false }
            cookies.remove(at: oldest.index)
            set(cookies, domain: oldest.domain, site: site)
            return true
        }

        /// The site holding the most cookies; of equal ones, that whose least recently used cookie
        /// is the oldest; `nil` when the jar is empty.
        private func largestSite() -> String? {
            let most = sites.values.map(\.count).max() ?? 0
            let largest = sites.filter { $0.value.count == most }.map(\.key)
            guard largest.count > 1 else { return largest.first }
            return largest.min { (leastRecentlyUsed(ofSite: $0)?.lastAccess ?? 0) < (leastRecentlyUsed(ofSite: $1)?.lastAccess ?? 0) }
        }
    }
}
