import Foundation

/// The body of a request as a transport sends it: bytes in memory, or a file streamed from disk.
///
/// A struct rather than an enum so that new kinds of body can be added without breaking a
/// transport's code: read it through ``data`` and ``fileURL``, which a new kind leaves `nil`
/// until the transport learns it.
public struct TransportBody: Sendable, Equatable {
    private enum Storage: Sendable, Equatable {
        case data(Data)
        case file(URL)
    }

    private let storage: Storage

    /// Bytes in memory.
    public static func data(_ data: Data) -> TransportBody { TransportBody(storage: .data(data)) }

    /// The contents of the file at `url`, streamed from disk (for large uploads).
    public static func file(_ url: URL) -> TransportBody { TransportBody(storage: .file(url)) }

    /// The bytes, when the body is in memory.
    public var data: Data? {
        if case .data(let data) = storage { return data }
        return nil
    }

    /// The file, when the body is streamed from disk.
    public var fileURL: URL? {
        if case .file(let url) = storage { return url }
        return nil
    }

    /// The body's length in bytes, or `nil` if a file's size cannot be read.
    public var length: Int64? {
        switch storage {
        case .data(let data):
            return Int64(data.count)
        case .file(let url):
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            return (attributes?[.size] as? NSNumber)?.int64Value
        }
    }
}
