import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BatonWire

/// The hosts reached without a proxy, read once from `no_proxy`'s syntax
/// (``HTTP1Transport/ProxySettings/exceptions``) and matched against each request's host.
struct ProxyExceptions: Sendable {
    private enum Entry: Sendable {
        /// `*`.
        case everything
        /// A name and the names under it, on any port or one.
        case domain(String, port: Int?)
        /// An address range: the first `prefix` bits of `bytes` (4 or 16 of them).
        case addresses([UInt8], prefix: Int, port: Int?)
    }

    private let entries: [Entry]

    init(_ written: [String]) {
        entries = written.compactMap(Self.entry)
    }

    /// Whether a request to `host`:`port` connects directly.
    func matches(_ host: CanonicalHost, port: Int) -> Bool {
        let address = host.isIPAddress ? Self.addressBytes(host.name) : nil
        return entries.contains { entry in
            switch entry {
            case .everything:
                return true
            case .domain(let name, let only):
                return (only == nil || only == port) && (host.name == name || host.name.hasSuffix("." + name))
            case .addresses(let bytes, let prefix, let only):
                guard only == nil || only == port, let address, address.count == bytes.count else { return false }
                return Self.samePrefix(address, bytes, bits: prefix)
            }
        }
    }

    /// One entry, or `nil` for one that fits no form.
    private static func entry(_ text: String) -> Entry? {
        var text = text.trimmingCharacters(in: .whitespaces).lowercased()
        if text == "*" { return .everything }
        if text.hasPrefix(".") { text.removeFirst() }
        guard !text.isEmpty else { return nil }
        var port: Int?
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            // [v6] or [v6]:port
            let rest = text[text.index(after: close)...]
            if rest.hasPrefix(":") {
                guard let number = Int(rest.dropFirst()) else { return nil }
                port = number
            } else if !rest.isEmpty {
                return nil
            }
            text = String(text[text.index(after: text.startIndex)..<close])
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            // name:port or v4:port
            guard let number = Int(text[text.index(after: colon)...]) else { return nil }
            port = number
            text = String(text[..<colon])
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if let bytes = addressBytes(String(parts[0])) {
            guard parts.count <= 2 else { return nil }
            let prefix = parts.count == 2 ? Int(parts[1]) : bytes.count * 8
            guard let prefix, (0...bytes.count * 8).contains(prefix) else { return nil }
            return .addresses(bytes, prefix: prefix, port: port)
        }
        guard parts.count == 1, let host = try? CanonicalHost(parsing: text) else { return nil }
        return .domain(host.name, port: port)
    }

    /// The bytes of an IPv4 or IPv6 address written numerically; `nil` for anything else.
    private static func addressBytes(_ text: String) -> [UInt8]? {
        var four = [UInt8](repeating: 0, count: 4)
        if inet_pton(AF_INET, text, &four) == 1 { return four }
        var six = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET6, text, &six) == 1 { return six }
        return nil
    }

    private static func samePrefix(_ a: [UInt8], _ b: [UInt8], bits: Int) -> Bool {
        for index in 0..<a.count {
            let bitsHere = min(8, max(0, bits - index * 8))
            if bitsHere == 0 { return true }
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bitsHere))
            if a[index] & mask != b[index] & mask { return false }
        }
        return true
    }
}
