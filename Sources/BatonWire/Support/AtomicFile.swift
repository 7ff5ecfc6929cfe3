import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file reads and atomic writes with POSIX calls: what the file-backed stores share.
package enum AtomicFile {
    /// Why a call failed: the system's `errno` and its message.
    package struct Failure: Error {
        package let code: Int32
        package var reason: String { String(cString: strerror(code)) }

        package init(_ code: Int32 = errno) { self.code = code }
    }

    /// Writes `data` to a new file beside `destination`, made by ``PrivateFile/create(_:)`` (never
    /// readable by others, even for a moment), optionally flushes it to the disk, then renames it over
    /// `destination`: a reader sees the old file or the new one, never a mix. The temporary file
    /// is removed if anything fails.
    package static func write(_ data: Data, to destination: String, flush: Bool) throws(Failure) {
        let slash = destination.lastIndex(of: "/").map { destination.index(after: $0) } ?? destination.startIndex
        let temporary = "\(destination[..<slash]).\(destination[slash...]).\(UUID().uuidString).tmp"
        let descriptor: Int32
        do { descriptor = try PrivateFile.create(temporary) } catch { throw Failure(error.code) }
        var failure: Failure?
        data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Foundation.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = Failure()
                    return
                }
                offset += written
            }
        }
        if failure == nil, flush, fsync(descriptor) != 0 { failure = Failure() }
        close(descriptor)
        if failure == nil, rename(temporary, destination) != 0 { failure = Failure() }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }

    /// The bytes of the file at `path`, or `nil` if there is no such file.
    package static func read(_ path: String) throws(Failure) -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw Failure()
        }
        defer { close(descriptor) }
        var info = stat()
        let expected = fstat(descriptor, &info) == 0 ? Int(info.st_size) : 0
        var data = Data(count: max(expected, 0) + 1)
        var length = 0
        while true {
            if length == data.count { data.count *= 2 }
            let count = data.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + length, $0.count - length) }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure()
            }
            if count == 0 { break }
            length += count
        }
        data.count = length
        return data
    }

    /// Removes the file at `path`; a file that is not there is not an error.
    package static func remove(_ path: String) throws(Failure) {
        guard unlink(path) == 0 || errno == ENOENT else { throw Failure() }
    }
}
