import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise
import BatonWire

/// Sends one request: its head, then its body, from memory or read from its file a piece at a
/// time (never the whole file in memory), reporting the bytes sent as they go into the socket.
///
/// A server may response before the whole body has arrived (a `413`, a `401`); the writer then
/// stops sending, and the response is read as any other. An interim response (`100 Continue`, `103
/// Early Hints`) is no such response: the body goes on past it. Pausing the request stops the writer
/// between two pieces.
struct RequestWriter {
    let request: InFlightRequest
    let link: Link

    /// Pieces of a body go into the socket this large, a progress report after each.
    static let pieceSize = 64 << 10

    /// Writes `head` and the body, `bodyLength` bytes long. `false` when the server answered
    /// before the whole body went (what is left was not sent: the connection cannot be reused).
    func write(head: [UInt8], bodyLength: Int64?) throws -> Bool {
        let timeout = request.timeout
        guard let body = request.body, let bodyLength, bodyLength > 0 else {
            _ = try head.withUnsafeBytes { bytes in try link.write(bytes, timeout: timeout) }
            return true
        }
        if let data = body.data, data.count <= Self.pieceSize {
            // A small body leaves with its head, in one write.
            _ = try (head + data).withUnsafeBytes { bytes in try link.write(bytes, timeout: timeout) }
            report(sent: bodyLength, of: bodyLength)
            return true
        }
        _ = try head.withUnsafeBytes { bytes in try link.write(bytes, timeout: timeout) }
        report(sent: 0, of: bodyLength)
        if let data = body.data {
            var offset = 0
            while offset < data.count {
                let end = min(offset + Self.pieceSize, data.count)
                guard try send(data[offset..<end]) else { return false }
                offset = end
                report(sent: Int64(offset), of: bodyLength)
            }
            return true
        }
        guard let url = body.fileURL, let file = try? FileHandle(forReadingFrom: url) else {
            throw URLError(.fileDoesNotExist, detail: "the body's file cannot be opened")
        }
        defer { try? file.close() }
        var sent: Int64 = 0
        while sent < bodyLength {
            let piece = try file.read(upToCount: Int(min(Int64(Self.pieceSize), bodyLength - sent))) ?? Data()
            guard !piece.isEmpty else {
                throw URLError(.cannotOpenFile, detail: "the body's file became shorter while it was sent (\(sent) of \(bodyLength) bytes)")
            }
            guard try send(piece) else { return false }
            sent += Int64(piece.count)
            report(sent: sent, of: bodyLength)
        }
        return true
    }

    /// Sends one piece of the body; `false`, with nothing sent, when the server has already
    /// sent its final response (or hung up).
    private func send(_ piece: Data) throws -> Bool {
        guard request.waitWhilePaused() else { throw URLError(.cancelled) }
        if link.finalResponseWaiting() { return false }
        do {
            return try piece.withUnsafeBytes { bytes in try link.write(bytes, timeout: request.timeout, untilResponded: true) }
        } catch let error as URLError where error.code == .networkConnectionLost && link.finalResponseWaiting() {
            // The server stopped reading to answer: its response is waiting.
            return false
        }
    }

    private func report(sent: Int64, of total: Int64) {
        request.report(PromiseProgress(completed: sent, total: total, kind: .bytesSent))
    }
}
