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

/// Resolves host names with the system resolver (`getaddrinfo`: `/etc/hosts`, DNS, IPv4 and
/// IPv6), on the calling thread: a connection's own thread, never a caller's.
package enum AddressResolver {
    /// The addresses of `host`, in the order the system prefers them.
    ///
    /// - Throws: `URLError(.cannotFindHost)` when the name does not resolve.
    package static func resolve(host: String, port: Int) throws(URLError) -> [ResolvedAddress] {
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
