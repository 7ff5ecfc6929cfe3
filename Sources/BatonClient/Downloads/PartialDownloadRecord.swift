import Foundation
import BatonWire

/// What is kept beside a partial download (``DownloadOptions/keepsPartialFile``) for a later call
/// to go on from it: the URL the bytes came from, their representation's validator, and its
/// length when known.
struct PartialDownloadRecord: Codable, Equatable {
    var url: String
    var validator: String
    var total: Int64?

    /// The record at `file`; `nil` when there is none, or it cannot be read.
    static func read(from file: URL) -> PartialDownloadRecord? {
        guard let data = try? AtomicFile.read(file.path) else { return nil }
        return try? JSONDecoder().decode(PartialDownloadRecord.self, from: data)
    }

    /// Writes the record to `file`, whole or not at all; a failure only means the next call
    /// starts over.
    func write(to file: URL) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? AtomicFile.write(data, to: file.path, flush: false)
    }
}
