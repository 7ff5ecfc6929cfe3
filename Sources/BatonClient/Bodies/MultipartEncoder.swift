import Foundation
import BatonWire

/// Lays out a ``MultipartForm``'s bytes: its size, the whole body in memory, or the body written to
/// a file in bounded memory.
struct MultipartEncoder: Sendable {
    /// Why a form cannot be encoded: a file part that cannot be read, or a file that cannot be written.
    struct Failure: Error {
        var reason: String
    }

    /// File parts are copied this much at a time, so that no file is ever held whole.
    static let chunkSize = 1 << 20

    let form: MultipartForm

    /// The body's size in bytes, after checking that every file part can be opened for reading.
    func size() throws(Failure) -> Int64 {
        var total: Int64 = 0
        for part in form.parts {
            total += Int64(part.head(boundary: form.boundary).count) + 2
            switch part.content {
            case .data(let data): total += Int64(data.count)
            case .file(let url): total += try Self.readableSize(of: url)
            }
        }
        return total + Int64(closing.count)
    }

    /// The whole body, in memory.
    func data() throws(Failure) -> Data {
        var body = Data()
        for part in form.parts {
            body += part.head(boundary: form.boundary)
            switch part.content {
            case .data(let data):
                body += data
            case .file(let url):
                do {
                    body += try Data(contentsOf: url)
                } catch {
                    throw Failure(reason: "the file \(url.path) cannot be read (\(error.localizedDescription))")
                }
            }
            body += Data("\r\n".utf8)
        }
        return body + closing
    }

    /// Writes the body to a new file at `destination`, copying file parts a chunk at a time.
    /// On failure the file is removed.
    func write(to destination: URL) throws(Failure) {
        let output: FileHandle
        do {
            output = FileHandle(fileDescriptor: try PrivateFile.create(destination.path), closeOnDealloc: true)
        } catch {
            throw Failure(reason: "the temporary file cannot be created: \(error)")
        }
        do {
            defer { try? output.close() }
            for part in form.parts {
                try output.write(contentsOf: part.head(boundary: form.boundary))
                switch part.content {
                case .data(let data):
                    try output.write(contentsOf: data)
                case .file(let url):
                    let input = try FileHandle(forReadingFrom: url)
                    defer { try? input.close() }
                    while let chunk = try input.read(upToCount: Self.chunkSize), !chunk.isEmpty {
                        try output.write(contentsOf: chunk)
                    }
                }
                try output.write(contentsOf: Data("\r\n".utf8))
            }
            try output.write(contentsOf: closing)
        } catch {
            try? FileManager.default.removeItem(at: destination)
            throw Failure(reason: "the body could not be written to a temporary file (\(error.localizedDescription))")
        }
    }

    /// The closing delimiter.
    private var closing: Data { Data("--\(form.boundary)--\r\n".utf8) }

    /// The size of the regular file at `url`, after checking that it can be opened for reading.
    static func readableSize(of url: URL) throws(Failure) -> Int64 {
        guard url.isFileURL else { throw Failure(reason: "\(url) is not a file URL") }
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw Failure(reason: "the file \(url.path) does not exist or cannot be read")
        }
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
            throw Failure(reason: "\(url.path) is not a regular file")
        }
        guard let handle = try? FileHandle(forReadingFrom: url) else {
            throw Failure(reason: "the file \(url.path) cannot be opened for reading")
        }
        try? handle.close()
        return (attributes[.size] as? NSNumber)?.int64Value ?? 0
    }
}
