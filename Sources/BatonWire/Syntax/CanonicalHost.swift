import BatonSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A host as every part of Baton names it: made once from a URL, and the only spelling that the
/// connection pools, the resolver, TLS (SNI, the certificate check, pins), the cookie jar and
/// every origin comparison see.
///
/// Why one spelling: a URL's host can be written many ways, and a C API stops reading a string at
/// its first NUL. `http://127.0.0.1%00.a.good.test/` decodes to a host that the resolver and
/// OpenSSL read as `127.0.0.1` while a Swift dictionary reads the whole string, so the cookie jar
/// and the pins would think of one server while the request went to another. A host is therefore:
/// - percent-decoded, then refused when it holds a NUL, a control character, a space or any
///   character that is no part of a host name (`%`, `/`, `@`, `\`, …), or any non-ASCII letter
///   (an international name is used in its `xn--` form, which the URL parser already gives);
/// - lower-cased, with one trailing dot dropped (`Example.COM.` is `example.com`);
/// - an IPv4 address in dotted-decimal form whatever the URL wrote (`127.1` and `0x7f.0.0.1` are
///   `127.0.0.1`), as the resolver would read it;
/// - an IPv6 address in its compressed form without brackets (`[0:0::1]` is `::1`); a zone
///   (`%25eth0`) is refused, as it names an interface of this machine, not a server.
package struct CanonicalHost: Hashable, Sendable, CustomStringConvertible {
    /// The host: a lower-cased name, a dotted-decimal IPv4 address, or a compressed IPv6 address
    /// without brackets.
    package let name: String
    /// Whether ``name`` is an IPv4 or IPv6 address rather than a name.
    package let isIPAddress: Bool

    /// The host as a URL or a `Host` field writes it: an IPv6 address in brackets.
    package var uriForm: String { name.utf8.contains(UInt8(ascii: ":")) ? "[\(name)]" : name }

    package var description: String { uriForm }

    /// The host of `url`.
    ///
    /// - Throws: `URLError(.badURL)` saying why, when the URL has no host or one that could be
    ///   read as two different hosts.
    package init(_ url: URL) throws(URLError) {
        guard let host = url.host(percentEncoded: false), !host.isEmpty else {
            throw URLError(.badURL, detail: "the URL \(Self.shown(url.absoluteString)) has no host")
        }
        if let known = Self.recent.withLock({ $0[host] }) {
            self = known
            return
        }
        try self.init(decoded: host)
        let made = self
        Self.recent.withLock { recent in
            if recent.count >= Self.recentCapacity { recent.removeAll(keepingCapacity: true) }
            recent[host] = made
        }
    }

    /// The hosts of recent URLs, by their decoded spelling: a request reads its URL's host
    /// several times (its pool, its proxy, its cookies, its origin), and a client mostly calls
    /// the same few servers. Forgotten all at once when full, so bounded whatever the URLs.
    static let recent = Locked<[String: CanonicalHost]>([:])
    static let recentCapacity = 64

    /// The host written as `text` (percent-encoded or not; an IPv6 address with or without
    /// brackets), as a configuration names one: a pinned host, a proxy exception.
    package init(parsing text: String) throws(URLError) {
        guard let decoded = text.removingPercentEncoding else {
            throw URLError(.badURL, detail: "the host \(Self.shown(text)) has a % that starts no valid escape")
        }
        try self.init(decoded: decoded)
    }

    /// Hosts are at most 253 characters (RFC 1035 §2.3.4, without the trailing dot).
    package static let maximumLength = 253
    /// And each label at most 63.
    package static let maximumLabelLength = 63

    private init(decoded: String) throws(URLError) {
        var text = decoded
        if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
        if let bad = text.unicodeScalars.first(where: { !Self.isHostCharacter($0) }) {
            throw URLError(.badURL, detail: "the host \(Self.shown(decoded)) \(Self.reason(for: bad))")
        }
        if text.utf8.contains(UInt8(ascii: ":")) {
            guard let address = Self.ipv6(text) else {
                throw URLError(.badURL, detail: "the host \(Self.shown(decoded)) has a colon but is not an IPv6 address")
            }
            name = address
            isIPAddress = true
            return
        }
        text = text.lowercased()
        if text.hasSuffix(".") { text.removeLast() }
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        if let last = labels.last, Self.looksNumeric(last) {
            guard let address = Self.ipv4(text) else {
                throw URLError(.badURL, detail: "the host \(Self.shown(decoded)) ends in a number but is not an IPv4 address")
            }
            name = address
            isIPAddress = true
            return
        }
        guard !text.isEmpty, text.utf8.count <= Self.maximumLength,
              labels.allSatisfy({ !$0.isEmpty && $0.utf8.count <= Self.maximumLabelLength }) else {
            throw URLError(.badURL, detail: "the host \(Self.shown(decoded)) is not a host name (an empty label, a label over "
                + "\(Self.maximumLabelLength) characters, or over \(Self.maximumLength) in all)")
        }
        name = text
        isIPAddress = false
    }

    /// Letters, digits, `-`, `_` and `.` in a name; hex digits, `:` and `.` in an IPv6 address.
    private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", ":": return true
        default: return false
        }
    }

    private static func reason(for scalar: Unicode.Scalar) -> String {
        switch scalar.value {
        case 0: return "holds a NUL byte (%00), which would name one host to the resolver and TLS and another to the rest of Baton"
        case 0..<0x20, 0x7F: return "holds a control character (U+\(String(scalar.value, radix: 16, uppercase: true)))"
        case 0x20: return "holds a space"
        case 0x80...: return "holds a non-ASCII character (write an international name in its xn-- form)"
        case 0x25 /* % */: return "holds a % (an IPv6 zone, or an escape decoded twice), which names no server"
        default: return "holds \"\(Character(scalar))\", which is no part of a host name"
        }
    }

    /// Whether a label reads as a number (`127`, `0x7f`), which makes the host an IPv4 address.
    private static func looksNumeric(_ label: Substring) -> Bool {
        let lower = label.lowercased()
        if lower.hasPrefix("0x") { return lower.dropFirst(2).allSatisfy(\.isHexDigit) }
        return !label.isEmpty && label.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `text` read as the resolver reads an IPv4 address (`inet_aton`: `127.1`, `0x7f.0.0.1`),
    /// in dotted-decimal form; `nil` when it is not one.
    private static func ipv4(_ text: String) -> String? {
        var address = in_addr()
        guard inet_aton(text, &address) != 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
        guard inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return Self.string(of: buffer)
    }

    /// `text` as an IPv6 address in its compressed form; `nil` when it is not one.
    private static func ipv6(_ text: String) -> String? {
        var address = in6_addr()
        guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return nil }
        return Self.string(of: buffer)
    }

    private static func string(of buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A host as an error shows it: escaped, so a control character is seen, never acted on.
    private static func shown(_ text: String) -> String {
        "\"\(MessageText.escaped(String(text.prefix(300))))\""
    }
}
