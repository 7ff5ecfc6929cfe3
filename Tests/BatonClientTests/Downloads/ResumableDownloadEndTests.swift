@testable import BatonPromise
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// ResumableDownload once a response filled its file: `verify()` (the size announced, the digest
/// named) and `end(succeeded:)` (the file removed, or kept with its record for a later download
/// to go on from).
final class ResumableDownloadEndTests: TemporaryFolderTestCase {
    private let url = "http://h/files/a.bin"
    private let helloDigest = "sha-256=:LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=:"


    private var file: URL { folder.appending(path: "a.part") }
    private var record: URL { folder.appending(path: "a.part.json") }

    private func download(kept: Bool = false, reasons: Recorder<String> = Recorder()) -> ResumableDownload {
        ResumableDownload(file: file, record: kept ? record : nil) { reasons.append($0) }
    }

    private func fields(_ headers: [String: String]) -> (String) -> String? {
        { name in headers.first { $0.key.lowercased() == name.lowercased() }?.value }
    }

    /// An attempt answered `200` with `headers`, of which `received` arrived.
    private func answer(_ download: ResumableDownload, headers: [String: String], received: String) throws {
        var request = URLRequest(url: URL(string: url)!)
        download.prepare(&request)
        let placement = try download.accept(status: 200, headers: fields(headers))
        let handle = try FileHandle(forWritingTo: download.file)
        defer { try? handle.close() }
        try handle.seek(toOffset: UInt64(placement.offset))
        try handle.write(contentsOf: Data(received.utf8))
    }

    // MARK: verify

    func test_theAnnouncedSize_passes_andAnotherFails_emptyingTheFile() throws {
        let good = download()
        try answer(good, headers: ["Content-Length": "5"], received: "hello")
        XCTAssertNoThrow(try good.verify())
        good.end(succeeded: true)

        let reasons = Recorder<String>()
        let short = download(reasons: reasons)
        try answer(short, headers: ["Content-Length": "10"], received: "hello")
        XCTAssertThrowsError(try short.verify()) { error in
            XCTAssertEqual((error as? URLError)?.code, .badServerResponse)
        }
        XCTAssertEqual(short.length, 0)
        XCTAssertEqual(reasons.count, 1)
    }

    func test_theNamedDigest_passes_andAnotherFails_emptyingTheFile() throws {
        let good = download()
        try answer(good, headers: ["Repr-Digest": helloDigest], received: "hello")
        XCTAssertTrue(good.wantsDigest)
        XCTAssertNoThrow(try good.verify())
        good.end(succeeded: true)

        let reasons = Recorder<String>()
        let wrong = download(reasons: reasons)
        try answer(wrong, headers: ["Repr-Digest": helloDigest], received: "world")
        XCTAssertThrowsError(try wrong.verify()) { error in
            XCTAssertEqual((error as? URLError)?.code, .badServerResponse)
        }
        XCTAssertEqual(wrong.length, 0)
        XCTAssertEqual(reasons.count, 1)
    }

    func test_aDigestTheTransportComputed_isTheOneChecked() throws {
        let download = download()
        try answer(download, headers: ["Repr-Digest": helloDigest], received: "hello")
        download.computed(Array(repeating: 0, count: 32))
        XCTAssertThrowsError(try download.verify())
    }

    func test_noSizeAndNoDigest_passes() throws {
        let download = download()
        try answer(download, headers: [:], received: "anything")
        XCTAssertFalse(download.wantsDigest)
        XCTAssertNoThrow(try download.verify())
        XCTAssertEqual(download.length, 8)
    }

    func test_theSizeOfACodedAnswer_isNotChecked() throws {
        let download = download()
        try answer(download, headers: ["Content-Length": "3", "Content-Encoding": "gzip"], received: "inflated")
        XCTAssertNoThrow(try download.verify())
    }

    // MARK: end

    func test_end_removesTheFile_whenNotKept_whateverTheOutcome() throws {
        for succeeded in [true, false] {
            let download = download()
            try answer(download, headers: ["ETag": "\"v1\""], received: "hel")
            download.end(succeeded: succeeded)
            XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "succeeded: \(succeeded)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: record.path), "succeeded: \(succeeded)")
        }
    }

    func test_end_ofAKeptDownloadThatFailed_keepsTheFileAndWritesItsRecord() throws {
        let download = download(kept: true)
        try answer(download, headers: ["ETag": "\"v1\"", "Content-Length": "5"], received: "hel")
        download.end(succeeded: false)

        XCTAssertEqual(try Data(contentsOf: file), Data("hel".utf8))
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any]
        XCTAssertEqual(saved?["url"] as? String, url)
        XCTAssertEqual(saved?["validator"] as? String, "\"v1\"")
        XCTAssertEqual((saved?["total"] as? NSNumber)?.intValue, 5)
    }

    func test_aKeptDownload_isTakenUpByTheNextOne() throws {
        let first = download(kept: true)
        try answer(first, headers: ["ETag": "\"v1\"", "Content-Length": "5"], received: "hel")
        first.end(succeeded: false)

        let reasons = Recorder<String>()
        let next = download(kept: true, reasons: reasons)
        var request = URLRequest(url: URL(string: url)!)
        next.prepare(&request)
        XCTAssertEqual(request.value(forHTTPHeaderField: "Range"), "bytes=3-")
        XCTAssertEqual(request.value(forHTTPHeaderField: "If-Range"), "\"v1\"")
        XCTAssertEqual(next.progressSoFar, PromiseProgress(completed: 3, total: 5, kind: .bytesReceived))
        XCTAssertEqual(reasons.events, [])
    }

    func test_end_ofAKeptDownloadThatSucceeded_removesTheFileAndItsRecord() throws {
        let download = download(kept: true)
        try answer(download, headers: ["ETag": "\"v1\""], received: "hello")
        XCTAssertTrue(FileManager.default.fileExists(atPath: record.path), "the record is written once there is a validator")
        download.end(succeeded: true)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: record.path))
    }

    func test_end_ofAKeptDownloadWithNothingInIt_removesTheEmptyFile() throws {
        let download = download(kept: true)
        try answer(download, headers: ["ETag": "\"v1\""], received: "")
        download.end(succeeded: false)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
    }

    func test_afterTheEnd_aLateAnswerMakesNoFile() throws {
        let download = download()
        var request = URLRequest(url: URL(string: url)!)
        download.prepare(&request)
        download.end(succeeded: false)
        XCTAssertThrowsError(try download.accept(status: 200, headers: fields([:]))) { error in
            XCTAssertEqual((error as? URLError)?.code, .cancelled)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: file.path))
    }

    // MARK: A late response, after the end

    /// A transport still going after a kept download ended (cancelled) reads a response's head of
    /// another version: it is refused, and the kept bytes stay labelled as the version they are.
    func test_aLateWholeAnswer_afterAKeptDownloadEnded_doesNotRelabelTheKeptBytes() throws {
        // Attempt 1: 3 bytes of representation "v1" arrived.
        let first = download(kept: true)
        var request = URLRequest(url: URL(string: url)!)
        first.prepare(&request)
        _ = try first.accept(status: 200, headers: fields(["ETag": "\"v1\"", "Content-Length": "5"]))
        try Data("hel".utf8).write(to: first.file)
        // Attempt 2 asks for the rest; the call is cancelled before its response's head arrives.
        var second = URLRequest(url: URL(string: url)!)
        first.prepare(&second)
        XCTAssertEqual(second.value(forHTTPHeaderField: "If-Range"), "\"v1\"")
        first.end(succeeded: false)
        // The transport, still going, reads the head late: the file changed on the server.
        XCTAssertThrowsError(try first.accept(status: 200, headers: fields(["ETag": "\"v2\"", "Content-Length": "5"])))
        XCTAssertEqual(try Data(contentsOf: first.file), Data("hel".utf8), "the kept bytes are still v1's")

        // A later download must not take the v1 bytes up as v2's.
        let later = download(kept: true)
        var resumed = URLRequest(url: URL(string: url)!)
        later.prepare(&resumed)
        XCTAssertNotEqual(resumed.value(forHTTPHeaderField: "If-Range"), "\"v2\"", "Range: \(resumed.value(forHTTPHeaderField: "Range") ?? "none")")
    }

    func test_aLateAnswer_afterAKeptDownloadEndedEmpty_leavesNoRecord() throws {
        let download = download(kept: true)
        var request = URLRequest(url: URL(string: url)!)
        download.prepare(&request)
        download.end(succeeded: false)
        XCTAssertThrowsError(try download.accept(status: 200, headers: fields(["ETag": "\"v1\""])))
        XCTAssertFalse(FileManager.default.fileExists(atPath: download.file.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: record.path), "a record of nothing")
    }
}
