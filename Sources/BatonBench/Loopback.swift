#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// TCP on 127.0.0.1, for the bench's own sockets: the floor's, and the probes that find a free
/// port and wait for nginx to listen.
enum Loopback {
    /// A new blocking IPv4 TCP socket.
    static func tcpSocket() -> Int32 {
        #if canImport(Glibc)
        socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket(AF_INET, SOCK_STREAM, 0)
        #endif
    }

    /// The address 127.0.0.1:`port`.
    static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    /// Connects `socket` to 127.0.0.1:`port`; whether it connected.
    static func connect(_ socket: Int32, port: UInt16) -> Bool {
        var address = address(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                systemConnect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

#if canImport(Glibc)
private let systemConnect = Glibc.connect
#else
private let systemConnect = Darwin.connect
#endif
