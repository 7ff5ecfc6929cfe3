@testable import BatonAuth
import Foundation
import TestSupport
import XCTest

/// The credential stores: the file store's mode, atomic writes, errors, and no leftovers.
final class CredentialStoreTests: XCTestCase {
    private var folder: URL!

    override func setUp() {
        super.setUp()
        folder = FileManager.default.temporaryDirectory.appending(path: "baton-store-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    private let credentials = Credentials(accessToken: "a", refreshToken: "r", expiresAt: Date(timeIntervalSince1970: 1_800_000_000))

    func test_fileStore_savesAFileOnlyTheUserCanRead_inAFolderItCreates_andReadsItBack() throws {
        let file = folder.appending(path: "nested/credentials.json")
        try FileCredentialStore(url: file).save(credentials)

        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)
        XCTAssertEqual((folderAttributes[.posixPermissions] as? NSNumber)?.intValue, 0o700)
        XCTAssertEqual(try FileCredentialStore(url: file).load(), credentials, "a fresh store reads what another saved")
    }

    func test_fileStore_replacesTheFile_andLeavesNoTemporaryFile() throws {
        let file = folder.appending(path: "credentials.json")
        let store = FileCredentialStore(url: file)
        try store.save(credentials)
        let second = Credentials(accessToken: "b")
        try store.save(second)

        XCTAssertEqual(try store.load(), second)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["credentials.json"])
    }

    func test_fileStore_missingFile_isNoCredentials_andClearingItIsFine() throws {
        let store = FileCredentialStore(url: folder.appending(path: "none.json"))
        XCTAssertNil(try store.load())
        XCTAssertNoThrow(try store.clear())
    }

    func test_fileStore_clear_deletesTheFile() throws {
        let file = folder.appending(path: "credentials.json")
        let store = FileCredentialStore(url: file)
        try store.save(credentials)
        try store.clear()
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
        XCTAssertNil(try store.load())
    }

    func test_fileStore_corruptFile_isAnErrorThatSaysSo() throws {
        let file = folder.appending(path: "credentials.json")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{\"accessTok".utf8).write(to: file)

        XCTAssertThrowsError(try FileCredentialStore(url: file).load()) { error in
            let error = error as? CredentialStoreError
            XCTAssertEqual(error?.kind, .corrupt)
            XCTAssertEqual(error?.description, "The credentials file \(file.path) is corrupt: it does not hold credentials as Baton saves them.")
        }
    }

    func test_fileStore_unwritableFolder_isAnError_andLeavesNoTemporaryFile() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // A file where the store expects its folder: nothing can be written beneath it.
        let blocker = folder.appending(path: "blocker")
        try Data().write(to: blocker)
        let store = FileCredentialStore(url: blocker.appending(path: "credentials.json"))

        XCTAssertThrowsError(try store.save(credentials)) { error in
            XCTAssertEqual((error as? CredentialStoreError)?.kind, .unwritable)
            XCTAssertFalse("\(error)".contains("\"a\""), "\(error)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["blocker"])
    }

    func test_inMemoryStore_holdsAndForgets() {
        let store = InMemoryCredentialStore()
        XCTAssertNil(store.load())
        store.save(credentials)
        XCTAssertEqual(store.load(), credentials)
        store.clear()
        XCTAssertNil(store.load())
    }
}
