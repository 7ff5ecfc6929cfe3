import Foundation

/// The body of a request as a transport sends it.
public enum TransportBody: Sendable, Equatable {
    /// Bytes in memory.
    case data(Data)
    /// The contents of a file, streamed from disk (for large uploads).
    case file(URL)

    /// The body's length in bytes, or `nil` if a file's size cannot be read.
    public var length: Int64? {
        switch self {
        case .data(let data):
            return Int64(data.count)
        case .file(let url):
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            return (attributes?[.size] as? NSNumber)?.int64Value
        }
    }
}
