import BatonSupport
import Foundation
import BatonWire
import BatonClient

/// Images kept in a folder, a file per URL, up to a number of bytes (the files saved longest
/// ago removed first). Each file starts with a line of JSON naming its URL, content type and
/// validators, so a file is only ever taken for the URL it was saved for, and can be revalidated.
/// A response marked `Cache-Control: no-store` is not kept.
final class DiskImageCache: Sendable {
    let folder: URL
    let limit: Int
    /// The folder's size as last measured plus what was saved since; `nil` until first measured.
    private let total = Locked<Int?>(nil)

    init(folder: URL, limit: Int) {
        self.folder = folder
        self.limit = limit
    }

    private struct Header: Codable {
        var url: String
        var contentType: String?
        var etag: String?
        var lastModified: String?
        /// Until when the image may be used without asking the server (`max-age`), in seconds
        /// since 1970; `nil` when it must be revalidated every time.
        var freshUntil: Double?
    }

    /// An image kept, with what revalidates it.
    struct Entry: Sendable {
        var image: LoadedImage
        var etag: String?
        var lastModified: String?
        var freshUntil: Date?

        /// Whether the server is to be asked if the image changed before it is used: it has a
        /// validator, and no `max-age` that still holds. An image without a validator is used as
        /// it is, as it cannot be asked about cheaply.
        var needsRevalidation: Bool {
            (etag != nil || lastModified != nil) && !(freshUntil.map { $0 > Date() } ?? false)
        }
    }

    func entry(for key: String) -> Entry? {
        guard let data = try? AtomicFile.read(file(for: key)),
              let newline = data.firstIndex(of: UInt8(ascii: "\n")),
              let header = try? JSONDecoder().decode(Header.self, from: data[..<newline]),
              header.url == key
        else { return nil }
        let image = LoadedImage(data: Data(data[(newline + 1)...]), contentType: header.contentType)
        return Entry(image: image, etag: header.etag, lastModified: header.lastModified, freshUntil: header.freshUntil.map(Date.init(timeIntervalSince1970:)))
    }

    /// Saves `image`, with the validators and freshness of the `response` it came in; a failure
    /// only means the next load goes to the network. A response marked `no-store` is not saved.
    func insert(_ image: LoadedImage, for key: String, from response: HTTPResponse?) {
        let cacheControl = response?.value(forHeader: "Cache-Control")?.lowercased() ?? ""
        guard !cacheControl.contains("no-store") else { return }
        let header = Header(
            url: key, contentType: image.contentType, etag: response?.value(forHeader: "ETag"),
            lastModified: response?.value(forHeader: "Last-Modified"),
            freshUntil: Self.maxAge(in: cacheControl).map { Date().timeIntervalSince1970 + Double($0) }
        )
        guard image.data.count <= limit, var data = try? JSONEncoder().encode(header) else { return }
        data.append(UInt8(ascii: "\n"))
        data.append(image.data)
        let path = file(for: key)
        do {
            try AtomicFile.write(data, to: path, flush: false)
        } catch {
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard (try? AtomicFile.write(data, to: path, flush: false)) != nil else { return }
        }
        let over = total.withLock { total -> Bool in
            total = (total ?? measured()) + data.count
            return total! > limit
        }
        if over { trim() }
    }

    /// The `max-age` of a `Cache-Control` value, in seconds; `nil` for none, or with `no-cache`.
    static func maxAge(in cacheControl: String) -> Int? {
        guard !cacheControl.contains("no-cache") else { return nil }
        for directive in cacheControl.split(separator: ",") {
            let pair = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0] == "max-age", let seconds = Int(pair[1]), seconds >= 0 { return seconds }
        }
        return nil
    }

    func removeAll() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasSuffix(".image") {
            try? AtomicFile.remove(folder.appending(path: name).path)
        }
        total.withLock { $0 = 0 }
    }

    /// The bytes in the folder's image files.
    private func measured() -> Int {
        let files = (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: [.fileSizeKey])) ?? []
        return files.filter { $0.pathExtension == "image" }.reduce(0) { $0 + ((try? $1.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0) }
    }

    /// Removes the files saved longest ago until the folder holds at most `limit` bytes.
    private func trim() {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        guard let files = try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: keys) else { return }
        var entries = files.filter { $0.pathExtension == "image" }.compactMap { file -> (URL, Int, Date)? in
            guard let values = try? file.resourceValues(forKeys: Set(keys)) else { return nil }
            return (file, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast)
        }
        var size = entries.reduce(0) { $0 + $1.1 }
        entries.sort { $0.2 < $1.2 }
        for (file, bytes, _) in entries where size > limit {
            try? AtomicFile.remove(file.path)
            size -= bytes
        }
        total.withLock { $0 = size }
    }

    /// The file for `key`: its 64-bit FNV-1a hash, in hexadecimal (the header tells colliding
    /// URLs apart).
    private func file(for key: String) -> String {
        folder.appending(path: FNV1a.hex(key) + ".image").path
    }
}
