import BatonSupport
@testable import BatonClient
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport
import XCTest

/// A small entity, as an app would store.
struct Note: StoredEntity, Equatable {
    var id: String
    var text: String
}

struct Counted: StoredEntity, Equatable {
    var id: Int
    var count: Int
}

/// The entity stores: upserts, reads, deletes, the file store's files, corrupt records, ids that
/// need escaping, and many writers at once.
final class EntityStoreTests: XCTestCase {
    private var folder: URL!

    override func setUp() {
        super.setUp()
        folder = FileManager.default.temporaryDirectory.appending(path: "baton-entities-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    private var stores: [any EntityStore] { [FileEntityStore(folder: folder), InMemoryEntityStore()] }

    func test_save_upsertsByID_andReadReturnsTheLatest() throws {
        for store in stores {
            try store.save([Note(id: "a", text: "one"), Note(id: "b", text: "two")])
            try store.save(Note(id: "a", text: "uno"))

            XCTAssertEqual(try store.read(Note.self, id: "a"), Note(id: "a", text: "uno"), "\(store)")
            XCTAssertEqual(try store.readAll(Note.self), [Note(id: "a", text: "uno"), Note(id: "b", text: "two")], "\(store)")
            XCTAssertNil(try store.read(Note.self, id: "c"))
            XCTAssertEqual(try store.readAll(Counted.self), [], "types are kept apart")
        }
    }

    func test_delete_andDeleteAll_removeWhatTheyName_only() throws {
        for store in stores {
            try store.save([Note(id: "a", text: "1"), Note(id: "b", text: "2")])
            try store.save(Counted(id: 1, count: 1))

            try store.delete(Note.self, id: "a")
            try store.delete(Note.self, id: "missing")
            XCTAssertEqual(try store.readAll(Note.self).map(\.id), ["b"], "\(store)")
            try store.deleteAll(Note.self)
            XCTAssertEqual(try store.readAll(Note.self), [], "\(store)")
            XCTAssertEqual(try store.read(Counted.self, id: 1), Counted(id: 1, count: 1), "\(store)")
        }
    }

    func test_fileStore_survivesANewInstance_withUserOnlyFiles_andNoTemporaryFileLeft() throws {
        // The usual mask, which lets others read what is created readable: the store must not.
        let mask = umask(0o022)
        defer { umask(mask) }
        try FileEntityStore(folder: folder).save([Note(id: "a", text: "kept")])

        XCTAssertEqual(try FileEntityStore(folder: folder).read(Note.self, id: "a"), Note(id: "a", text: "kept"))
        let typeFolder = folder.appending(path: "Note")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: typeFolder.path), ["a.json"])
        let attributes = try FileManager.default.attributesOfItem(atPath: typeFolder.appending(path: "a.json").path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
    }

    func test_fileStore_aSave_replacesTheRecordWhole_soAReaderOfTheOldOneStillReadsItWhole() throws {
        let store = FileEntityStore(folder: folder)
        let old = Note(id: "a", text: String(repeating: "古い記録 ", count: 10_000))
        try store.save(old)
        // A reader in the middle of the old record when the save happens.
        let reader = try FileHandle(forReadingFrom: folder.appending(path: "Note/a.json"))
        defer { try? reader.close() }

        try store.save(Note(id: "a", text: "new"))

        let read = try XCTUnwrap(reader.readToEnd())
        XCTAssertEqual(try JSONDecoder().decode(Note.self, from: read), old, "the old record, whole: the new one was written beside it and renamed over it")
        XCTAssertEqual(try store.read(Note.self, id: "a")?.text, "new")
    }

    func test_fileStore_idsThatNeedEscaping_roundTrip_andStayInsideTheFolder() throws {
        let store = FileEntityStore(folder: folder)
        let ids = ["../../escape", "a/b", ".", "..", "東京", "with space", "%41", ".hidden"]
        try store.save(ids.map { Note(id: $0, text: $0) })

        for id in ids { XCTAssertEqual(try store.read(Note.self, id: id)?.text, id) }
        XCTAssertEqual(Set(try store.readAll(Note.self).map(\.id)), Set(ids))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["Note"], "nothing written outside the type's folder")
    }

    func test_fileStore_refusesAnEmptyOrOverlongID_namingIt() throws {
        let store = FileEntityStore(folder: folder)
        for id in ["", String(repeating: "東", count: 100)] {
            XCTAssertThrowsError(try store.save(Note(id: id, text: ""))) { error in
                XCTAssertEqual((error as? EntityStoreError)?.kind, .invalidID)
                XCTAssertEqual((error as? EntityStoreError)?.entity, "Note")
            }
        }
    }

    func test_fileStore_aCorruptRecord_isSkippedWithAnEvent_neverFatal_andLeftOnDisk() throws {
        let events = Locked<[EntityStoreEvent]>([])
        let store = FileEntityStore(folder: folder) { event in events.withLock { $0.append(event) } }
        // An id that is escaped in its file name: the event gives it back as the entity has it.
        try store.save([Note(id: "good", text: "fine"), Note(id: "bad/1", text: "soon torn")])
        let torn = folder.appending(path: "Note/bad%2F1.json")
        try Data(#"{"id": "bad/1", "te"#.utf8).write(to: torn)

        XCTAssertEqual(try store.readAll(Note.self), [Note(id: "good", text: "fine")])
        XCTAssertNil(try store.read(Note.self, id: "bad/1"))

        let skipped = events.value
        XCTAssertEqual(skipped.map(\.kind), [.corruptRecordSkipped, .corruptRecordSkipped])
        XCTAssertEqual(skipped.first?.id, "bad/1")
        XCTAssertEqual(skipped.first?.entity, "Note")
        XCTAssertEqual(skipped.first?.file.lastPathComponent, torn.lastPathComponent)
        XCTAssertTrue(skipped.first?.description.contains("Note bad/1 was skipped") ?? false, "\(skipped)")
        XCTAssertEqual(try Data(contentsOf: torn), Data(#"{"id": "bad/1", "te"#.utf8), "a skipped record stays on disk as it was")
        try store.save(Note(id: "bad/1", text: "mended"))
        XCTAssertEqual(try store.read(Note.self, id: "bad/1")?.text, "mended", "saving over a corrupt record mends it")
    }

    func test_fileStore_aFolderThatCannotBeWritten_isAnErrorNamingTheEntity() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A file where the type's folder should be.
        try Data().write(to: folder.appending(path: "Note"))
        let store = FileEntityStore(folder: folder)

        XCTAssertThrowsError(try store.save(Note(id: "a", text: ""))) { error in
            let failure = error as? EntityStoreError
            XCTAssertEqual(failure?.kind, .unwritable)
            XCTAssertEqual(failure?.id, "a")
            XCTAssertTrue("\(error)".hasPrefix("Note a could not be written: "), "\(error)")
        }
    }

    func test_fileStore_eightThreadsWritingAtOnce_loseNothing() throws {
        let store = FileEntityStore(folder: folder)
        let failures = Locked<[String]>([])
        // Each thread writes its own ids and a shared one, over and over.
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<50 {
                do {
                    try store.save(Counted(id: thread * 1000 + round, count: round))
                    try store.save(Counted(id: -1, count: thread))
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }

        XCTAssertEqual(failures.value, [])
        let all = try store.readAll(Counted.self)
        XCTAssertEqual(all.count, 8 * 50 + 1)
        for thread in 0..<8 {
            for round in 0..<50 { XCTAssertEqual(try store.read(Counted.self, id: thread * 1000 + round)?.count, round) }
        }
        XCTAssertTrue((0..<8).contains(try XCTUnwrap(store.read(Counted.self, id: -1)).count))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.appending(path: "Counted").path).filter { $0.hasPrefix(".") }, [])
    }
}
