import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One address a host name resolved to, ready for `connect`.
package struct ResolvedAddress: Sendable, CustomStringConvertible {
    package let family: Int32
    /// A `sockaddr_in` or `sockaddr_in6`, as bytes.
    package let storage: [UInt8]
    package let length: socklen_t

    /// Whether it is an IPv6 address.
    package var isIPv6: Bool { family == AF_INET6 }

    package init(family: Int32, storage: [UInt8], length: socklen_t) {
        self.family = family
        self.storage = storage
        self.length = length
    }

    /// The address written as `numeric` (`127.0.0.1`, `::1`), at `port`; `nil` when `numeric`
    /// is no IPv4 or IPv6 address. Looks nothing up.
    package init?(numeric: String, port: Int) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard (0...65535).contains(port), getaddrinfo(numeric, String(port), &hints, &list) == 0, let first = list else { return nil }
        defer { freeaddrinfo(first) }
        guard let address = first.pointee.ai_addr else { return nil }
        self.init(family: first.pointee.ai_family,
                  storage: [UInt8](UnsafeRawBufferPointer(start: address, count: Int(first.pointee.ai_addrlen))),
                  length: first.pointee.ai_addrlen)
    }

    /// The address's bytes alone (4 for IPv4, 16 for IPv6), as a SOCKS5 request carries them:
    /// a `sockaddr_in` holds them after its family and port (at 4), a `sockaddr_in6` after its
    /// flow information too (at 8).
    package var addressBytes: [UInt8] {
        isIPv6 ? Array(storage[8..<24]) : Array(storage[4..<8])
    }

    /// `127.0.0.1:8080`, `[::1]:8080`.
    package var description: String {
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let found = storage.withUnsafeBytes { bytes in
            bytes.withMemoryRebound(to: sockaddr.self) { address in
                getnameinfo(address.baseAddress, length, &host, socklen_t(host.count), &service, socklen_t(service.count), NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard found == 0 else { return "an address" }
        let name = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let port = String(decoding: service.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return family == AF_INET6 ? "[\(name)]:\(port)" : "\(name):\(port)"
    }
}

/// Finds the addresses of a host name, on the calling thread: a connection's own thread, never a
/// caller's. ``system`` asks the system resolver; a test hands the transport one of its own, to
/// send a name to addresses it controls.
package struct AddressResolver: Sendable {
    /// The addresses of a host at a port, in the order preferred.
    package let resolve: @Sendable (_ host: String, _ port: Int) throws(URLError) -> [ResolvedAddress]

    package init(_ resolve: @escaping @Sendable (_ host: String, _ port: Int) throws(URLError) -> [ResolvedAddress]) {
        self.resolve = resolve
    }

    /// The system resolver (`getaddrinfo`: `/etc/hosts`, DNS, IPv4 and IPv6 both, asked at once).
    package static let system = AddressResolver { host, port throws(URLError) in try systemResolve(host: host, port: port) }

    /// The addresses of `host`, in the order the system prefers them (RFC 6724).
    ///
    /// - Throws: `URLError(.cannotFindHost)` when the name does not resolve.
    private static func systemResolve(host: String, port: Int) throws(URLError) -> [ResolvedAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_NUMERICSERV | AI_ADDRCONFIG
        var list: UnsafeMutablePointer<addrinfo>?
        // A URL writes an IPv6 address in brackets; the resolver wants it bare.
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let status = getaddrinfo(name, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = status == 0 ? "no address" : String(cString: gai_strerror(status))
            throw URLError(.cannotFindHost, detail: "the host name \(name) did not resolve (\(reason))")
        }
        defer { freeaddrinfo(first) }
        var addresses: [ResolvedAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let address = current.pointee.ai_addr, current.pointee.ai_family == AF_INET || current.pointee.ai_family == AF_INET6 {
                let length = Int(current.pointee.ai_addrlen)
                let bytes = [UInt8](UnsafeRawBufferPointer(start: address, count: length))
                addresses.append(ResolvedAddress(family: current.pointee.ai_family, storage: bytes, length: current.pointee.ai_addrlen))
            }
            entry = current.pointee.ai_next
        }
        guard !addresses.isEmpty else { throw URLError(.cannotFindHost, detail: "the host name \(name) has no IPv4 or IPv6 address") }
        return addresses
    }
}
