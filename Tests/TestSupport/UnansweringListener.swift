import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A listener on 127.0.0.1 whose accept queue is full, so that the kernel drops every further
/// SYN: a connection to it neither succeeds nor fails, as to an address behind a broken route.
///
/// It listens with a backlog of 0 and never accepts; one connection made at once fills the queue.
package final class UnansweringListener: Sendable {
    package let port: UInt16
    private let listener: Int32
    private let filler: Int32

    package init() throws {
        let listener = try Self.socket()
        self.listener = listener
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                guard bind(listener, generic, length) == 0, listen(listener, 0) == 0,
                      getsockname(listener, generic, &length) == 0 else { throw POSIXError(.EADDRINUSE) }
            }
        }
        port = UInt16(bigEndian: address.sin_port)
        let filler = try Self.socket()
        self.filler = filler
        var target = Self.loopback(port: port)
        let connected = withUnsafePointer(to: &target) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit {
        close(filler)
        close(listener)
    }

    private static func socket() throws -> Int32 {
        #if canImport(Glibc)
        let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        return fd
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return address
    }
}

/// How many descriptors the process has open, from `/proc/self/fd`; `nil` where there is none.
package func openDescriptorCount() -> Int? {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).map(\.count)
}
