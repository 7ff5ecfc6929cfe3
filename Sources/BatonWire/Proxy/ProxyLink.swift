import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A proxy's socket while the transport asks it for a tunnel: writes and reads bounded by the
/// one deadline of the whole connection, and failures that name the proxy.
struct ProxyLink {
    let socket: Socket
    /// `proxy.example:3128`, as the failures name it.
    let proxy: String
    let deadline: ContinuousClock.Instant
    /// The connect timeout the deadline stands for, for the sentences.
    let timeout: Duration

    private var remaining: Duration {
        get throws(URLError) {
            let left = deadline - .now
            guard left > .zero else { throw URLError(.timedOut, detail: "the proxy \(proxy) did not open the tunnel within \(timeout)") }
            return left
        }
    }

    func write(_ bytes: [UInt8]) throws(URLError) {
        let left = try remaining
        _ = try bytes.withUnsafeBytes { buffer in Result { () throws(URLError) in try socket.write(buffer, timeout: left) } }.get()
    }

    /// Reads what has arrived into `buffer`, at most `limit` bytes: the count, 0 when the proxy
    /// closed the connection.
    func read(into buffer: inout [UInt8], at offset: Int, limit: Int) throws(URLError) -> Int {
        let left = try remaining
        let result = buffer.withUnsafeMutableBytes { bytes in
            Result { () throws(URLError) in
                try socket.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[offset..<offset + limit]), timeout: left)
            }
        }
        if case .failure(let error) = result, error.code == .timedOut {
            throw URLError(.timedOut, detail: "the proxy \(proxy) did not open the tunnel within \(timeout)")
        }
        return try result.get()
    }

    /// Reads exactly `count` more bytes, appended to `bytes`.
    func read(exactly count: Int, appendingTo bytes: inout [UInt8]) throws(URLError) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        var filled = 0
        while filled < count {
            let read = try read(into: &bytes, at: start + filled, limit: count - filled)
            guard read > 0 else { throw closed() }
            filled += read
        }
    }

    func closed() -> URLError {
        URLError(.networkConnectionLost, detail: "the proxy \(proxy) closed the connection before the tunnel was open")
    }
}
