// A libFuzzer target for Baton's cookie jar (Sources/BatonWire/Cookies/CookieJar.swift, SetCookie.swift,
// Cookies/): Set-Cookie lines and request URLs, stored and looked up, with the Public Suffix List.
// Each input is lines (see `Script`). The jar must never trap, and:
// - a cookie sent to a host domain-matches it (RFC 6265 §5.1.3, written out plainly in
//   `domainMatches`): a host-only cookie goes to its own host alone, a domain cookie to its domain
//   and the names under it, never from or to an IP address; its path matches, it is unexpired, it
//   is `Secure` only over https, and longer paths go first;
// - every cookie the rules allow for an ASCII host is sent (the jar's look-up against a brute force
//   over all it holds);
// - no domain cookie is kept for a public suffix, or for a domain no host that set cookies lies in;
// - the caps hold: 180 a site, 3,000 in all, the count agrees with the cookies;
// - PublicSuffixList agrees with `ReferenceList`, the list's algorithm as publicsuffix.org words
//   it (every matching rule collected, the exception or the longest prevailing), on every name the
//   input holds and its suffixes.
// Build and run: see README beside this file.
import BatonWire
import Foundation

/// The list's algorithm, rule by rule: slow and plain, the check on PublicSuffixList.
struct ReferenceList {
    /// The rules by their last label: their labels, and whether each is an exception (`!`).
    var rules: [String: [(labels: [String], isException: Bool)]] = [:]

    init(text: String) {
        for line in text.split(separator: "\n") {
            let isException = line.hasPrefix("!")
            let labels = Self.labels(String(isException ? line.dropFirst() : line))
            rules[labels.last!, default: []].append((labels, isException))
        }
    }

    /// `name` split at every `.` scalar (not Character: a combining mark may follow a dot).
    static func labels(_ name: String) -> [String] {
        name.unicodeScalars.split(separator: ".", omittingEmptySubsequences: false).map { String(String.UnicodeScalarView($0)) }
    }

    /// publicsuffix.org/list: "A domain is said to match a rule if and only if all of the
    /// following conditions are met: when the domain and rule are split into corresponding labels,
    /// that the domain contains as many or more labels than the rule; beginning with the right-most
    /// labels of both the domain and the rule, and continuing for all labels in the rule, one finds
    /// that for every pair, either they are identical, or that the label from the rule is `*`."
    /// Then: an exception prevails, else the rule with most labels, else `*`.
    func registrableDomain(_ name: String) -> String? {
        var scalars = Array(name.lowercased().unicodeScalars)
        let hasTrailingDot = scalars.count > 1 && scalars.last == "."
        if hasTrailingDot { scalars.removeLast() }
        let labels = Self.labels(String(String.UnicodeScalarView(scalars)))
        guard !labels.contains(where: \.isEmpty) else { return nil }
        let matching = (rules[labels.last!] ?? []).filter { rule in
            rule.labels.count <= labels.count
                && zip(rule.labels.reversed(), labels.reversed()).allSatisfy { $0 == "*" || $0 == $1 }
        }
        let length: Int
        if let exception = matching.first(where: \.isException) {
            length = exception.labels.count - 1
        } else {
            length = matching.map(\.labels.count).max() ?? 1
        }
        guard length < labels.count else { return nil }
        return labels.suffix(length + 1).joined(separator: ".") + (hasTrailingDot ? "." : "")
    }
}

let referenceList = ReferenceList(text: PublicSuffixRules.text)

/// The reference's responses for this input: it is slow, and the jar's checks ask the same names
/// again. Emptied after each input, or libFuzzer would take what it keeps for a leak.
nonisolated(unsafe) var referenceResponses: [String: String?] = [:]

/// The reference's registrable domain of `name`.
func referenceRegistrableDomain(_ name: String) -> String? {
    if let known = referenceResponses[name] { return known }
    let answer = referenceList.registrableDomain(name)
    referenceResponses[name] = answer
    return answer
}

/// RFC 6265 §5.1.3, as written: identical, or a host name (not an IP address) ending in "." and the domain.
func domainMatches(_ host: String, _ domain: String) -> Bool {
    host == domain || (!CookieJar.isIPAddress(host) && host.hasSuffix("." + domain))
}

/// RFC 6265 §5.1.4, as written, over bytes.
func pathMatches(_ path: String, _ cookiePath: String) -> Bool {
    let path = Array(path.utf8), cookie = Array(cookiePath.utf8)
    if path == cookie { return true }
    guard path.starts(with: cookie) else { return false }
    return cookie.last == UInt8(ascii: "/") || path[cookie.count] == UInt8(ascii: "/")
}

/// PublicSuffixList and the reference agree on `name` and every suffix of it.
func checkList(_ name: String) {
    var rest = name[...]
    for _ in 0..<8 {
        let name = String(rest)
        let expected = referenceRegistrableDomain(name)
        let got = PublicSuffixList.shared.registrableDomain(name)
        check(got == expected,
              "registrableDomain(\(name.debugDescription)) is \(got.debugDescription), the list's algorithm says \(expected.debugDescription)")
        check(PublicSuffixList.shared.isPublicSuffix(name) == (expected == nil), "isPublicSuffix(\(name.debugDescription)) disagrees")
        guard let dot = rest.unicodeScalars.firstIndex(of: ".") else { return }
        rest = rest[rest.unicodeScalars.index(after: dot)...]
    }
}

/// The jar's own bookkeeping and what it keeps: caps, counts, no cookie for a public suffix or
/// for a domain no setting host lies in.
func checkJar(_ jar: CookieJar, settingHosts: Set<String>) {
    let cookies = jar.allCookies
    check(cookies.count == jar.count, "count \(jar.count) for \(cookies.count) cookies")
    check(cookies.count <= CookieJar.maximumCookies, "\(cookies.count) cookies kept")
    for (site, count) in Dictionary(grouping: cookies, by: { CookieJar.site(of: $0.domain) }).mapValues(\.count) {
        check(count <= CookieJar.maximumCookiesPerSite, "\(count) cookies kept for \(site)")
    }
    for cookie in cookies {
        if cookie.isHostOnly {
            check(settingHosts.contains(cookie.domain), "a host-only cookie for \(cookie.domain), which set none")
        } else {
            check(referenceRegistrableDomain(cookie.domain) != nil, "a domain cookie for the public suffix \(cookie.domain)")
            check(!CookieJar.isIPAddress(cookie.domain), "a domain cookie for the address \(cookie.domain)")
            check(settingHosts.contains { domainMatches($0, cookie.domain) }, "a domain cookie for \(cookie.domain), where no setting host lies")
        }
    }
}

/// What the jar sends to `url` at `now` keeps the rules, and, for an ASCII host, is all they allow.
func checkLookUp(_ jar: CookieJar, _ url: URL, now: Date) {
    // Held before the look-up, which drops expired cookies and marks the others used, no more.
    let held = jar.allCookies
    let sent = jar.cookies(for: url, now: now)
    guard let host = CookieJar.host(of: url) else {
        check(sent.isEmpty, "cookies sent to \(url), which has no host")
        return
    }
    let isHTTPS = url.scheme?.lowercased() == "https"
    let path = CookieJar.requestPath(of: url)
    func allowed(_ cookie: CookieJar.Cookie) -> Bool {
        (cookie.isHostOnly ? cookie.domain == host : domainMatches(host, cookie.domain))
            && (isHTTPS || !cookie.isSecure) && pathMatches(path, cookie.path) && !cookie.isExpired(at: now)
    }
    for cookie in sent {
        check(allowed(cookie), "\(cookie) sent to \(url)")
        check(cookie.isHostOnly || referenceRegistrableDomain(cookie.domain) != nil, "a cookie for the public suffix \(cookie.domain) sent")
    }
    check(zip(sent, sent.dropFirst()).allSatisfy { $0.path.utf8.count >= $1.path.utf8.count }, "a shorter path sent first to \(url)")
    if host.utf8.allSatisfy({ $0 < 0x80 }) {
        let expected = held.filter(allowed).map { "\($0.domain) \($0.path) \($0.name)" }.sorted()
        let got = sent.map { "\($0.domain) \($0.path) \($0.name)" }.sorted()
        check(got == expected, "sent to \(url): \(got), allowed: \(expected)")
    }
    let header = jar.cookieHeader(for: url, now: now) ?? ""
    check(!header.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0 }, "a line end or NUL in the Cookie line for \(url)")
}

/// The input, line by line:
/// - `> URL`: later cookies are set by a response to URL (first: http://www.example.com/a/b);
/// - `< URL`: a request to URL, its cookies checked;
/// - `+ N`: the clock moves N seconds on;
/// - `# N VALUE`: VALUE set N times (at most 256, past a site's cap), its name prefixed with the
///   count, each from a host of its own under the current one (`h7.www.example.com`);
/// - any other line: a Set-Cookie value, set by a response to the current URL.
/// Then every host and domain seen is looked up, with its parents and a name under it, over http
/// and https.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    defer { referenceResponses = [:] }
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let jar = CookieJar()
    var now = Date(timeIntervalSince1970: 1_700_000_000)
    var current = URL(string: "http://www.example.com/a/b")!
    var settingHosts: Set<String> = []
    var names: Set<String> = []
    func store(_ values: [String], from url: URL) {
        jar.store(setCookieValues: values, from: url, now: now)
        if let host = CookieJar.host(of: url) { settingHosts.insert(host) }
    }
    for line in text.split(separator: "\n").prefix(64) {
        let line = String(line)
        checkList(line)
        if line.hasPrefix("> ") || line.hasPrefix("< ") {
            guard let url = URL(string: String(line.dropFirst(2))) else { continue }
            if let host = CookieJar.host(of: url) { names.insert(host) }
            if line.hasPrefix(">") { current = url } else { checkLookUp(jar, url, now: now) }
        } else if line.hasPrefix("+ ") {
            now += Double(Int(line.dropFirst(2)).map { min(max($0, 0), 100_000_000) } ?? 1)
        } else if line.hasPrefix("# "), let space = line.dropFirst(2).firstIndex(of: " ") {
            let count = min(Int(line[line.index(line.startIndex, offsetBy: 2)..<space]) ?? 0, 256)
            let value = line[line.index(after: space)...]
            guard let host = CookieJar.host(of: current), let scheme = current.scheme else { continue }
            for index in 0..<max(count, 0) {
                guard let url = URL(string: "\(scheme)://h\(index).\(host)\(CookieJar.requestPath(of: current))") else { break }
                store(["\(index)" + value], from: url)
            }
        } else {
            store([line], from: current)
            if let domain = SetCookie(line)?.domain { names.insert(domain) }
        }
        checkJar(jar, settingHosts: settingHosts)
    }
    for name in names.union(settingHosts).prefix(8) {
        checkList(name)
        var parents = [name, "x." + name]
        if let dot = name.firstIndex(of: ".") { parents.append(String(name[name.index(after: dot)...])) }
        for host in parents {
            let bracketed = host.contains(":") ? "[\(host)]" : host
            for scheme in ["http", "https"] {
                for path in ["/", "/a/b/c"] {
                    if let url = URL(string: "\(scheme)://\(bracketed)\(path)") { checkLookUp(jar, url, now: now) }
                }
            }
        }
    }
    return 0
}
