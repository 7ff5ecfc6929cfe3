import Foundation
import BatonSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A request body as it arrives: in memory while small, in an unlinked temporary file past
/// `spillThreshold`, so a 64 MiB upload is held on disk once rather than in memory several times.
///
/// The file is unlinked as soon as it is created, so it disappears with its descriptor even if the
/// process dies; `close()` (called by the connection after every request) releases it.
final class IncomingBody {
    /// Bodies that went to a temporary file, in this process: lets tests see that uploads spill.
    static let spilledBodies = Locked(0)

    private(set) var count = 0
    private var memory: [UInt8] = []
    private var fileDescriptor: Int32?
    let spillThreshold: Int

    init(spillThreshold: Int) {
        self.spillThreshold = spillThreshold
    }

    deinit {
        close()
    }

    /// Whether the body went to a temporary file.
    var isSpilled: Bool { fileDescriptor != nil }

    func append(_ bytes: ArraySlice<UInt8>) throws(DemoServerError) {
        if fileDescriptor == nil, memory.count + bytes.count > spillThreshold {
            let fd = try Self.makeUnlinkedFile()
            fileDescriptor = fd
            Self.spilledBodies.withLock { $0 += 1 }
            try Self.writeAll(memory[...], to: fd)
            memory = []
        }
        if let fd = fileDescriptor {
            try Self.writeAll(bytes, to: fd)
        } else {
            memory.append(contentsOf: bytes)
        }
        count += bytes.count
    }

    /// Calls `body` with the whole body in order, in pieces of at most 1 MiB when it is on disk.
    /// Returns false if the temporary file could not be read back (the disk failed): the pieces
    /// handed over are then not the whole body, and the caller must not act on them.
    @discardableResult
    func forEachPiece<E: Error>(_ body: (ArraySlice<UInt8>) throws(E) -> Void) throws(E) -> Bool {
        guard let fd = fileDescriptor else {
            if !memory.isEmpty { try body(memory[...]) }
            return true
        }
        var piece = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < count {
            let read = piece.withUnsafeMutableBytes { buffer in
                pread(fd, buffer.baseAddress, min(buffer.count, count - offset), off_t(offset))
            }
            if read < 0 && errno == EINTR { continue }
            // The file is ours and unlinked; a failed read can only mean the disk failed.
            guard read > 0 else { return false }
            try body(piece[0..<read])
            offset += read
        }
        return true
    }

    /// The whole body as one array, or nil when it is larger than `limit`.
    func bytes(limit: Int) -> [UInt8]? {
        guard count <= limit else { return nil }
        guard isSpilled else { return memory }
        var all: [UInt8] = []
        all.reserveCapacity(count)
        forEachPiece { all.append(contentsOf: $0) }
        return all
    }

    /// Releases the memory or temporary file; the body is empty afterwards.
    func close() {
        if let fd = fileDescriptor { Posix.closeDescriptor(fd) }
        fileDescriptor = nil
        memory = []
        count = 0
    }

    private static func makeUnlinkedFile() throws(DemoServerError) -> Int32 {
        var template = Array((NSTemporaryDirectory() as NSString).appendingPathComponent("demo-server-body-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { Posix.counted(mkstemp($0)) } ?? -1 }
        guard fd >= 0 else { throw DemoServerError(operation: "create a temporary file for a request body", errno: errno) }
        _ = unlink(template)
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
        return fd
    }

    private static func writeAll(_ bytes: ArraySlice<UInt8>, to fd: Int32) throws(DemoServerError) {
        var offset = bytes.startIndex
        while offset < bytes.endIndex {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw DemoServerError(operation: "write a request body to a temporary file", errno: errno)
            }
            offset += written
        }
    }
}
