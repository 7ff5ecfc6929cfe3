@testable import BatonWire
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport
import XCTest

/// The files Baton writes what it receives into (`PrivateFile`, and the download files made with
/// it): mode 0600 from the start whatever the umask, nothing already at the name written over,
/// and no symbolic link ever followed.
final class PrivateFileTests: TemporaryFolderTestCase {
    private func path(_ name: String) -> String { folder.appending(path: name).path }

    private func mode(_ path: String) -> mode_t {
        var info = stat()
        XCTAssertEqual(lstat(path, &info), 0, "nothing at \(path)")
        return info.st_mode & 0o777
    }

    private func contents(_ path: String) -> String? {
        (try? Data(contentsOf: URL(fileURLWithPath: path))).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Runs `body` with the process's umask set to `mask`, then puts the old one back.
    private func withUmask<T>(_ mask: mode_t, _ body: () throws -> T) rethrows -> T {
        let old = umask(mask)
        defer { umask(old) }
        return try body()
    }

    // MARK: Made

    func test_aMadeFile_isMode0600_whateverTheUmask() throws {
        for mask: mode_t in [0o000, 0o022, 0o077, 0o277] {
            let made = path("made-\(String(mask, radix: 8))")
            let descriptor = try withUmask(mask) { try PrivateFile.create(made) }
            close(descriptor)
            XCTAssertEqual(mode(made), 0o600, "umask \(String(mask, radix: 8))")
        }
    }

    func test_aDownloadsTemporaryFile_isMode0600_underAPermissiveUmask() throws {
        let (url, handle) = try XCTUnwrap(withUmask(0) { DownloadFile.open() })
        defer { try? FileManager.default.removeItem(at: url) }
        try handle.close()
        XCTAssertEqual(mode(url.path), 0o600)
    }

    func test_aKeptPartialFile_isMode0600_underAPermissiveUmask() throws {
        let partial = folder.appending(path: "a.bin.partial")
        let download = ResumableDownload(file: partial, record: nil) { _ in }
        var request = URLRequest(url: URL(string: "http://h/a.bin")!)
        download.prepare(&request)
        _ = try withUmask(0) { try download.accept(status: 200, headers: { _ in nil }) }
        XCTAssertEqual(mode(partial.path), 0o600)
    }

    func test_aFileAlreadyAtTheName_isNeitherWrittenOver_norTruncated() throws {
        let there = path("there")
        try Data("kept".utf8).write(to: URL(fileURLWithPath: there))

        XCTAssertThrowsError(try PrivateFile.create(there)) { error in
            XCTAssertEqual("\(error)", "\(there) is there already; Baton will not write over it")
        }
        XCTAssertEqual(contents(there), "kept")
    }

    func test_aSymbolicLinkAtTheName_isNotFollowed_evenToAFileNotYetMade() throws {
        let target = path("target")
        let link = path("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

        XCTAssertThrowsError(try PrivateFile.create(link)) { error in
            XCTAssertEqual("\(error)", "\(link) is a symbolic link; Baton will not write through it")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: target), "the link's target was made")
    }

    // MARK: Reopened

    func test_reopeningASymbolicLink_isRefused_andItsTargetIsUntouched() throws {
        let target = path("target")
        let link = path("link")
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

        XCTAssertThrowsError(try PrivateFile.openExisting(link)) { error in
            XCTAssertEqual("\(error)", "\(link) is a symbolic link; Baton will not write through it")
        }
        XCTAssertEqual(contents(target), "someone else's")
    }

    func test_reopeningAFIFO_isRefusedAtOnce() throws {
        let fifo = path("fifo")
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        XCTAssertThrowsError(try PrivateFile.openExisting(fifo)) { error in
            XCTAssertTrue("\(error)".hasPrefix(fifo), "\(error)")
        }
    }

    func test_reopeningARegularFile_keepsWhatIsInIt() throws {
        let file = path("file")
        try Data("01234".utf8).write(to: URL(fileURLWithPath: file))
        let descriptor = try PrivateFile.openExisting(file)
        close(descriptor)
        XCTAssertEqual(contents(file), "01234")
    }

    /// A link put in place of a kept partial file once the call has started (after the
    /// up-front check): the file is opened without following it, so it is neither cut nor written.
    func test_aKeptPartialFileThatIsASymbolicLink_isNeitherCutNorWrittenThrough() throws {
        let target = path("target")
        let partial = folder.appending(path: "a.bin.partial")
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: partial.path, withDestinationPath: target)
        let download = ResumableDownload(file: partial, record: nil) { _ in }
        var request = URLRequest(url: URL(string: "http://h/a.bin")!)
        download.prepare(&request)

        XCTAssertThrowsError(try download.accept(status: 200, headers: { _ in nil })) { error in
            XCTAssertEqual((error as? URLError)?.code, .cannotWriteToFile)
            let detail = (error as? URLError)?.detail ?? ""
            XCTAssertTrue(detail.contains("\(partial.path) is a symbolic link; Baton will not write through it"), detail)
        }
        XCTAssertEqual(contents(target), "someone else's")
        XCTAssertThrowsError(try download.adopt(HTTPResponse(statusCode: 200, body: Data("new".utf8))))
        XCTAssertEqual(contents(target), "someone else's")
    }
}
