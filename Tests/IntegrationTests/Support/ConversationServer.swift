import BatonSupport
import BatonOpenSSL
@testable import DemoServer
import Foundation
import XCTest

/// A loopback server that holds a conversation of the test's own with each client, over plain
/// TCP or TLS: for the exchanges no ordinary server has (an interim response before the body is
/// read, a close without `close_notify`, an event cut in two). Each connection, one at a time,
/// is handed to `script` as a ``Peer``; when the script returns, the connection closes.
final class ConversationServer: Sendable {
    private let listener: LoopbackListener
    /// Connections accepted so far.
    let connections = Locked(0)

    var port: UInt16 { listener.port }

    /// - Parameter tls: Serve TLS with DemoServer's loopback identity (trust
    ///   `DemoServer.TLS.loopbackRootCertificatePEM`).
    init(tls: Bool = false, script: @escaping @Sendable (Peer) -> Void) throws {
        let context = try tls ? TLSContext(serverChainPEM: DemoServer.TLS.loopback.certificateChainPEM,
                                           privateKeyPEM: DemoServer.TLS.loopback.privateKeyPEM, maximumVersion: nil) : nil
        let connections = self.connections
        listener = try LoopbackListener { fd, wake in
            connections.withLock { $0 += 1 }
            let stream: ConnectionStream?
            if let context {
                stream = try? ConnectionStream.handshake(fd: fd, wake: wake, timeout: .seconds(30), context: context).get()
            } else {
                stream = ConnectionStream(fd: fd, wake: wake, timeout: .seconds(30))
            }
            if let stream { script(Peer(stream: stream, wake: wake)) }
        }
    }

    func url(_ path: String = "answer", tls: Bool = false) -> URL {
        URL(string: "\(tls ? "https" : "http")://localhost:\(port)/\(path)")!
    }

    /// The server's side of one connection.
    final class Peer: @unchecked Sendable {  // Used by the one server thread that runs the script.
        let stream: ConnectionStream
        private let wake: Int32
        private var buffered: [UInt8] = []

        init(stream: ConnectionStream, wake: Int32) {
            self.stream = stream
            self.wake = wake
        }

        /// Reads up to the end of a request head (its empty line); `nil` when the client closed first.
        func readHead() -> String? {
            let end = Array("\r\n\r\n".utf8)
            while true {
                if let range = firstRange(of: end) {
                    let head = Array(buffered[..<range.upperBound])
                    buffered.removeFirst(range.upperBound)
                    return String(decoding: head, as: UTF8.self)
                }
                guard fill() else { return nil }
            }
        }

        /// Reads exactly `count` bytes of a body; `nil` when the client closed first.
        func read(_ count: Int) -> [UInt8]? {
            while buffered.count < count { guard fill() else { return nil } }
            defer { buffered.removeFirst(count) }
            return Array(buffered[..<count])
        }

        /// Sends `text` as it is.
        func send(_ text: String) {
            _ = stream.write(ArraySlice(Array(text.utf8)))
        }

        /// Sends TLS's `close_notify`, as a whole stream's end.
        func closeNotify() {
            stream.closeNotify()
        }

        private func fill() -> Bool {
            var piece = [UInt8](repeating: 0, count: 64 << 10)
            while true {
                if !stream.hasBufferedInput {
                    guard Posix.wait(for: stream.fd, wake: wake, until: .now + .seconds(30)) == .ready else { return false }
                }
                guard let count = piece.withUnsafeMutableBytes({ stream.receive(into: $0) }) else { continue }
                guard count > 0 else { return false }
                buffered += piece[0..<count]
                return true
            }
        }

        private func firstRange(of needle: [UInt8]) -> Range<Int>? {
            guard buffered.count >= needle.count else { return nil }
            for start in 0...(buffered.count - needle.count) where buffered[start..<start + needle.count].elementsEqual(needle) {
                return start..<start + needle.count
            }
            return nil
        }
    }
}
