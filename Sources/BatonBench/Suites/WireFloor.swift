import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The floor of `baton-bench client`: the simplest keep-alive GET loop this benchmark can write
/// on blocking sockets, one socket and one thread per concurrent worker, each writing a request
/// and reading its head and `Content-Length` bytes of body, nothing decoded. What any Swift
/// client on this machine is bounded by.
enum WireFloor {
    /// Requests per second of `GET path` with `headers`, `requests` of them over `concurrency`
    /// sockets to 127.0.0.1:`port`.
    static func requestsPerSecond(port: UInt16, path: String, headers: [String: String], requests: Int, concurrency: Int) -> Double {
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let request = Array((head + "\r\n").utf8)
        let remaining = WorkCounter(requests)
        let group = DispatchGroup()
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<min(concurrency, requests) {
            group.enter()
            Thread {
                defer { group.leave() }
                let socket = connect(port: port)
                defer { close(socket) }
                var buffer = [UInt8](repeating: 0, count: 64 << 10)
                while remaining.take() {
                    guard request.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, 0) }) == request.count,
                          readResponse(socket, into: &buffer) else { fatalError("baton-bench: the floor's request failed") }
                }
            }.start()
        }
        group.wait()
        return Double(requests) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// A blocking TCP socket connected to 127.0.0.1:`port`, without Nagle's delay.
    private static func connect(port: UInt16) -> Int32 {
        let socket = Loopback.tcpSocket()
        guard Loopback.connect(socket, port: port) else { fatalError("baton-bench: the floor could not connect") }
        var one: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        return socket
    }

    /// Reads one response: its head, then as many bytes as its `Content-Length` says.
    private static func readResponse(_ socket: Int32, into buffer: inout [UInt8]) -> Bool {
        var filled = 0
        var headEnd: Int?
        var bodyLength = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + filled, $0.count - filled, 0) }
            guard count > 0 else { return false }
            filled += count
            if headEnd == nil, let end = find(Array("\r\n\r\n".utf8), in: buffer[0..<filled]) {
                headEnd = end + 4
                let head = String(decoding: buffer[0..<end], as: UTF8.self).lowercased()
                guard let range = head.range(of: "content-length:") else { return false }
                bodyLength = Int(head[range.upperBound...].prefix { $0 != "\r" }.trimmingCharacters(in: .whitespaces)) ?? 0
            }
            if let headEnd, filled >= headEnd + bodyLength { return true }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for index in haystack.startIndex...(haystack.endIndex - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }
}
