import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BatonWire

/// An ``EntityStore`` on disk: one JSON file per entity, in a folder per type, so a store
/// survives a restart and can be shared by processes.
///
/// ```swift
/// let store = FileEntityStore(folder: caches.appending(path: "entities")) { event in
///     log(event)                                    // a record that did not decode, skipped
/// }
/// try store.save(book)
/// let again = try store.read(Book.self, id: book.id)
/// ```
///
/// - Each save writes a temporary file beside the record and renames it over the record, so a
///   reader, in this process or another, sees the old record or the new one, never a mix; a
///   process that dies mid-write leaves the old record. (Records are not flushed to the disk
///   one by one: a power cut can lose the latest saves, as with `Data.write(options: .atomic)`.)
/// - Safe to use from any number of threads, and from several processes at once; when two
///   write the same id, the last rename wins.
/// - A record that does not decode (a torn or hand-edited file, or a type whose fields changed)
///   is reported to `onEvent` as ``EntityStoreEvent/Kind/corruptRecordSkipped`` and left out of
///   what is read; it is never fatal, and it stays on disk until saved over or deleted.
/// - Records are readable by the user only (mode 0600): responses often hold personal data.
/// - Ids are kept in file names, percent-escaped: any id works, up to 200 bytes once escaped.
public final class FileEntityStore: EntityStore {
    /// The folder holding a folder per type.
    package let folder: URL
    private let onEvent: (@Sendable (EntityStoreEvent) -> Void)?
    private let encoder = JSONEncoder()
    private let decoder = JSONDecoder()
    /// `folder`'s path, ending in `/`: records' paths are built as text, which is several times
    /// cheaper than appending to a URL on every read.
    private let root: String

    /// A store in `folder`, made when first written to. `onEvent` hears of records skipped.
    public init(folder: URL, onEvent: (@Sendable (EntityStoreEvent) -> Void)? = nil) {
        self.folder = folder
        self.onEvent = onEvent
        let path = folder.path
        root = path.hasSuffix("/") ? path : path + "/"
    }

    public func save<Entity: StoredEntity>(_ entities: [Entity]) throws {
        for entity in entities {
            let id = String(entity.id)
            let file = try record(Entity.self, id: id)
            let data: Data
            do {
                data = try encoder.encode(entity)
            } catch {
                throw EntityStoreError(.unencodable, entity: Entity.storeName, id: id, reason: "\(error)")
            }
            try write(data, to: file, entity: Entity.storeName, id: id)
        }
    }

    public func read<Entity: StoredEntity>(_ type: Entity.Type, id: Entity.ID) throws -> Entity? {
        try decoded(Entity.self, at: record(Entity.self, id: String(id)))
    }

    /// Every entity of `type`, ordered by file name (the escaped id).
    public func readAll<Entity: StoredEntity>(_ type: Entity.Type) throws -> [Entity] {
        let folder = typeFolder(Entity.self)
        return try recordNames(in: folder, of: Entity.self).compactMap { try decoded(Entity.self, at: folder + $0) }
    }

    public func delete<Entity: StoredEntity>(_ type: Entity.Type, id: Entity.ID) throws {
        try remove(record(Entity.self, id: String(id)), entity: Entity.storeName)
    }

    public func deleteAll<Entity: StoredEntity>(_ type: Entity.Type) throws {
        let folder = typeFolder(Entity.self)
        for name in try recordNames(in: folder, of: Entity.self) { try remove(folder + name, entity: Entity.storeName) }
    }

    // MARK: Files

    /// The path of the type's folder, ending in `/`.
    private func typeFolder<Entity: StoredEntity>(_ type: Entity.Type) -> String {
        root + Self.escaped(Entity.storeName) + "/"
    }

    /// The path of the record of `type` with `id`.
    private func record<Entity: StoredEntity>(_ type: Entity.Type, id: String) throws -> String {
        let name = Self.escaped(id)
        guard !id.isEmpty, name.utf8.count <= 200 else {
            throw EntityStoreError(.invalidID, entity: Entity.storeName, id: id, reason: id.isEmpty ? "its id is empty" : "its id is longer than 200 bytes once escaped")
        }
        return typeFolder(type) + name + ".json"
    }

    /// The records' file names in `folder`, sorted; none when it does not exist yet.
    private func recordNames<Entity: StoredEntity>(in folder: String, of type: Entity.Type) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder)
                .filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
                .sorted()
        } catch CocoaError.fileReadNoSuchFile {
            return []
        } catch {
            throw EntityStoreError(.unreadable, entity: Entity.storeName, id: nil, reason: "\(folder): \(error.localizedDescription)")
        }
    }

    /// Writes `data` over `file`, atomically; makes the type's folder on the first write.
    private func write(_ data: Data, to file: String, entity: String, id: String) throws {
        do {
            do {
                try AtomicFile.write(data, to: file, flush: false)
            } catch where error.code == ENOENT {
                let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
                try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                try AtomicFile.write(data, to: file, flush: false)
            }
        } catch {
            throw EntityStoreError(.unwritable, entity: entity, id: id, reason: "\(file): \(error.reason)")
        }
    }

    /// The entity in `file`, or `nil` when there is no such file or it does not decode (reported).
    private func decoded<Entity: StoredEntity>(_ type: Entity.Type, at file: String) throws -> Entity? {
        let data: Data?
        do {
            data = try AtomicFile.read(file)
        } catch {
            throw EntityStoreError(.unreadable, entity: Entity.storeName, id: nil, reason: "\(file): \(error.reason)")
        }
        guard let data else { return nil }
        do {
            return try decoder.decode(Entity.self, from: data)
        } catch {
            let url = URL(fileURLWithPath: file)
            let id = Self.unescaped(String(url.lastPathComponent.dropLast(".json".count)))
            let reason = (error as? DecodingError).map { ResponseDecoding.describe($0).1 } ?? "\(error)"
            onEvent?(EntityStoreEvent(kind: .corruptRecordSkipped, entity: Entity.storeName, id: id, file: url, reason: reason))
            return nil
        }
    }

    private func remove(_ file: String, entity: String) throws {
        do {
            try AtomicFile.remove(file)
        } catch {
            throw EntityStoreError(.unwritable, entity: entity, id: nil, reason: "\(file) could not be removed: \(error.reason)")
        }
    }

    // MARK: Names

    /// Letters, digits, `-` and `_` as they are; every other byte of the UTF-8 as `%XX`.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                escaped += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return escaped
    }

    /// The text ``escaped(_:)`` was given.
    static func unescaped(_ name: String) -> String {
        name.removingPercentEncoding ?? name
    }
}
