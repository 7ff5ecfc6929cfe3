import BatonOpenSSL
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP client for sending exact bytes to a test server on 127.0.0.1 and reading what
/// comes back, including nothing at all. Every read is bounded by `readTimeout`, so a test can never
/// hang on a server that does not answer. Over TLS once ``startTLS(host:)`` has run.
final class RawClient {
    struct Response: Equatable {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The `message` of a `{"message": ...}` error body.
        var message: String? {
            (try? JSONSerialization.jsonObject(with: Data(body))).flatMap { ($0 as? [String: Any])?["message"] as? String }
        }
    }

    enum Failure: Error {
        case connect(Int32)
        case closedBeforeResponse([UInt8])
        case timedOut([UInt8])
        case malformedResponse(String)
    }

    /// The default read timeout: a hang guard only, far above the milliseconds a loopback response
    /// takes, so a busy machine never trips it. Tests that watch for nothing arriving pass a
    /// short one.
    static let hangGuard: Double = 30

    let fd: Int32
    private var pending: [UInt8] = []
    /// Every byte received so far, read or not: with the server's `bytes_sent`, a test can check
    /// what went over the wire.
    private(set) var bytesReceived = 0
    /// The TLS session bytes go through, once ``startTLS(host:)`` has run.
    var tls: TLSSession?

    init(port: UInt16, readTimeout: Double = hangGuard) throws {
        #if canImport(Glibc)
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            _ = close(fd)
            throw Failure.connect(code)
        }
        setReadTimeout(readTimeout)
    }

    deinit {
        _ = close(fd)
    }

    func setReadTimeout(_ seconds: Double) {
        var timeout = timeval()
        timeout.tv_sec = .init(seconds.rounded(.down))
        // `tv_usec` is Int on Glibc and Int32 on Darwin.
        timeout.tv_usec = .init((seconds - seconds.rounded(.down)) * 1_000_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Sends every byte; returns false if the server had already closed the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        tls == nil ? sendRaw(bytes) : sendTLS(bytes)
    }

    /// Sends every byte as it is, TLS or not.
    func sendRaw(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            #else
            let sent = bytes[offset...].withUnsafeBytes { Darwin.send(fd, $0.baseAddress, $0.count, 0) }
            #endif
            if sent <= 0 { return false }
            offset += sent
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool {
        send(Array(text.utf8))
    }

    /// One response, its body delimited by `Content-Length` (absent for 1xx, 204, and HEAD responses).
    func readResponse(headRequest: Bool = false) throws -> Response {
        let (status, headers) = try readHead()
        let hasBody = !headRequest && status >= 200 && status != 204 && status != 304
        let length = hasBody ? Int(headers["content-length"] ?? "0") ?? 0 : 0
        return Response(status: status, headers: headers, body: try readBytes(length))
    }

    /// A response's status line and header fields (names lower-cased), its body left to read.
    func readHead() throws -> (status: Int, headers: [String: String]) {
        var headEnd: Int?
        while headEnd == nil {
            if let range = pending.firstRange(of: Array("\r\n\r\n".utf8)) {
                headEnd = range.upperBound
            } else {
                try fill()
            }
        }
        let headText = String(decoding: pending[0..<headEnd!], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n").filter { !$0.isEmpty }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
            throw Failure.malformedResponse(headText)
        }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw Failure.malformedResponse(headText) }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        pending.removeFirst(headEnd!)
        return (status, headers)
    }

    /// The data of the next chunk of a chunked body; nil for the last chunk, its trailer read too.
    func readChunk() throws -> [UInt8]? {
        let sizeLine = try readLine()
        guard let size = Int(sizeLine.prefix { $0 != ";" }, radix: 16) else { throw Failure.malformedResponse(sizeLine) }
        guard size > 0 else {
            while try !readLine().isEmpty {}
            return nil
        }
        let data = try readBytes(size)
        let end = try readLine()
        guard end.isEmpty else { throw Failure.malformedResponse("chunk data followed by \(end)") }
        return data
    }

    /// The next line, without its CRLF.
    private func readLine() throws -> String {
        while true {
            if let range = pending.firstRange(of: Array("\r\n".utf8)) {
                let line = String(decoding: pending[..<range.lowerBound], as: UTF8.self)
                pending.removeFirst(range.upperBound)
                return line
            }
            try fill()
        }
    }

    /// Exactly the next `count` bytes, waiting for them (each read bounded by the read timeout).
    func readBytes(_ count: Int) throws -> [UInt8] {
        while pending.count < count { try fill() }
        let bytes = Array(pending[0..<count])
        pending.removeFirst(count)
        return bytes
    }

    /// Closes the connection in both directions, as a client that gives up does (the socket
    /// itself is closed when the client is released).
    func hangUp() {
        // Over TLS, as a TLS client closing properly does: `close_notify` first.
        if let tls {
            tls.close()
            _ = flushTLS(tls)
        }
        _ = shutdown(fd, Int32(SHUT_RDWR))
    }

    /// Reads until the server closes: true if it closed within the read timeout, false otherwise.
    /// Whatever arrived before the close is returned too.
    func readUntilClosed() -> (closed: Bool, bytes: [UInt8]) {
        while true {
            do {
                try fill()
            } catch Failure.closedBeforeResponse {
                let bytes = pending
                pending = []
                return (true, bytes)
            } catch {
                return (false, pending)
            }
        }
    }

    private func fill() throws {
        let bytes = try tls == nil ? receiveRaw() : receiveTLS()
        guard !bytes.isEmpty else { throw Failure.closedBeforeResponse(pending) }
        bytesReceived += bytes.count
        pending += bytes
    }

    /// The next bytes off the socket as they are, TLS or not; none when the server closed.
    func receiveRaw() throws -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { return Array(chunk[0..<count]) }
            if count == 0 || errno == ECONNRESET { return [] }
            if errno != EINTR { throw Failure.timedOut(pending) }
        }
    }
}

extension String {
    /// The text with `\n` line ends turned into CRLF, so request literals stay readable.
    var crlf: String { replacingOccurrences(of: "\n", with: "\r\n") }
}
