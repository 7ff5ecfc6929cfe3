import BatonSupport
import BatonOpenSSL
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BatonPromise
import BatonWire

/// The file and its record: starting over, cutting the file, and the record of a kept
/// download's validator. Called with the download's state, under its lock where they say so.
extension ResumableDownload {
    /// Throws what arrived away, and says why; nothing, once the call is over.
    func startOver(because reason: String) {
        let current = state.withLock(annotating: self) { state in
            guard !state.ended else { return false }
            state.validator = nil
            state.total = nil
            state.asked = 0
            return true
        }
        guard current else { return }
        try? cut(at: 0)
        if let record { try? FileManager.default.removeItem(at: record) }
        startedOver(reason)
    }

    /// Cuts the file to `offset` bytes, making it if it is not there; refused once the call is
    /// over, so that a transport finishing late leaves no file behind.
    func cut(at offset: Int64) throws(URLError) {
        try whileCurrent { try cutLocked(at: offset) }
    }

    /// Runs `work` on the file with the state locked, unless the call is over: file work that
    /// must not happen after its end (a late transport making the file again, a cancelled
    /// download replacing its destination).
    ///
    /// - Throws: `URLError(.cancelled)` once the call is over; `work`'s error as a `URLError`.
    func whileCurrent<T: Sendable>(_ work: () throws -> T) throws(URLError) -> T {
        do {
            return try state.withLock(annotating: self) { state in
                guard !state.ended else { throw URLError(.cancelled) }
                return try work()
            }
        } catch let error as URLError {
            throw error
        } catch {
            throw URLError(.cannotWriteToFile, detail: "the download's file \(file.path) cannot be written (\(error.localizedDescription))")
        }
    }

    /// Whether the call is over: a transport still writing stops.
    var hasEnded: Bool { state.withLock(annotating: self) { $0.ended } }

    /// The file cut to `offset` bytes, made if missing (see ``PrivateFile``: a symbolic link in
    /// its place is refused, never followed or cut); called with the state locked.
    func cutLocked(at offset: Int64) throws(URLError) {
        let descriptor: Int32
        do {
            do {
                descriptor = try PrivateFile.openExisting(file.path)
            } catch where error.code == ENOENT {
                descriptor = try PrivateFile.create(file.path)
            }
        } catch {
            throw URLError(.cannotWriteToFile, detail: "the download's file cannot be opened: \(error)")
        }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(offset)) == 0 else {
            throw URLError(.cannotWriteToFile, detail: "the download's file \(file.path) cannot be cut to \(offset) bytes (\(String(cString: strerror(errno))))")
        }
    }

    /// Reads a kept download's record, once: its validator applies to the bytes if its URL is
    /// the request's.
    func readRecordOnce() {
        guard let record else { return }
        let first = state.withLock(annotating: self) { state in
            defer { state.recordRead = true }
            return !state.recordRead
        }
        guard first, let kept = PartialDownloadRecord.read(from: record) else { return }
        state.withLock(annotating: self) { state in
            state.url = kept.url
            state.validator = kept.validator
            state.total = kept.total
        }
    }

    /// Writes a kept download's record, when there is a validator to keep.
    func writeRecord() {
        guard let record else { return }
        let kept = state.withLock(annotating: self) { state in
            state.validator.map { PartialDownloadRecord(url: state.url ?? "", validator: $0, total: state.total) }
        }
        kept?.write(to: record)
    }
}
