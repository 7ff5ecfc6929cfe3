import BatonSupport
@testable import DemoServer
import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback server that answers every request with the same bytes, exactly as written, for
/// the responses DemoServer never sends (a `Content-Length` past `Int64`, a head cut short): it
/// reads a request's head, writes `response` and then `streamed` bytes more, then closes the
/// connection (or, with `holdsOpen`, waits for the client to close it).
///
/// It counts the bytes it has sent, and tells (``heldBack``) when the client stopped taking
/// them: a write of the streamed bytes that waited for room in the socket for a fifth of a second.
final class ScriptedServer: Sendable {
    private let listener: LoopbackListener
    /// Bytes sent so far, over every connection.
    let sent = Locked(0)
    /// Fulfilled the first time a streamed write waited 200 ms for the client to take bytes.
    let heldBack = XCTestExpectation(description: "the client stopped reading")

    var port: UInt16 { listener.port }

    /// - Parameter reads: With `holdsOpen`, whether the server goes on reading what the client
    ///   sends after the response (`false`: it reads nothing more, so a client still sending a body
    ///   finds no room once the socket's buffers are full).
    /// - Parameter piece: What the streamed bytes repeat (64 KiB of `a` by default).
    init(response: [UInt8], streamed: Int = 0, piece: [UInt8]? = nil, holdsOpen: Bool = false, reads: Bool = true) throws {
        let sent = self.sent, heldBack = self.heldBack
        heldBack.assertForOverFulfill = false
        listener = try LoopbackListener { connection, wake in
            Self.serve(connection, response: response, streamed: streamed, piece: piece, holdsOpen: holdsOpen, reads: reads,
                       wake: wake, sent: sent, heldBack: heldBack)
        }
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/response")! }

    /// Reads up to the end of a request head, then sends `response` and `streamed` bytes.
    private static func serve(
        _ connection: Int32, response: [UInt8], streamed: Int, piece: [UInt8]?, holdsOpen: Bool, reads: Bool, wake: Int32,
        sent total: Locked<Int>, heldBack: XCTestExpectation
    ) {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end: [UInt8] = Array("\r\n\r\n".utf8)
        while !containsSubsequence(received, end) {
            guard Posix.wait(for: connection, wake: wake, until: .now + .seconds(30)) == .ready,
                  let count = buffer.withUnsafeMutableBytes({ Posix.receive(connection, into: $0) }), count > 0
            else { return }
            received += buffer[0..<count]
        }
        var sent = 0
        while sent < response.count {
            guard Posix.wait(for: connection, writable: true, wake: wake, until: .now + .seconds(30)) == .ready else { return }
            let count = response.withUnsafeBytes { Posix.send(connection, UnsafeRawBufferPointer(rebasing: $0[sent...])) }
            guard count >= 0 else { return }
            sent += count
            total.withLock { $0 += count }
        }
        let piece = piece ?? [UInt8](repeating: UInt8(ascii: "a"), count: 64 << 10)
        var streamedSent = 0
        while streamedSent < streamed {
            switch Posix.wait(for: connection, writable: true, wake: wake, until: .now + .milliseconds(200)) {
            case .ready: break
            case .timedOut:
                heldBack.fulfill()
                continue
            case .stopping: return
            }
            // A short write goes on where it stopped in the piece, so that the stream is the piece
            // repeated whole: a format's elements stay intact.
            let offset = streamedSent % piece.count
            let end = min(piece.count, offset + streamed - streamedSent)
            let count = piece.withUnsafeBytes { Posix.send(connection, UnsafeRawBufferPointer(rebasing: $0[offset..<end])) }
            guard count >= 0 else { return }
            streamedSent += count
            total.withLock { $0 += count }
        }
        guard holdsOpen else { return Posix.shutdownWrite(connection) }
        guard reads else {
            _ = Posix.wait(for: nil, wake: wake, until: .now + .seconds(60))
            return
        }
        while Posix.wait(for: connection, wake: wake, until: .now + .seconds(30)) == .ready {
            guard let count = buffer.withUnsafeMutableBytes({ Posix.receive(connection, into: $0) }), count > 0 else { return }
        }
    }

    private static func containsSubsequence(_ bytes: [UInt8], _ part: [UInt8]) -> Bool {
        guard bytes.count >= part.count else { return false }
        return (0...(bytes.count - part.count)).contains { bytes[$0..<($0 + part.count)].elementsEqual(part) }
    }
}
