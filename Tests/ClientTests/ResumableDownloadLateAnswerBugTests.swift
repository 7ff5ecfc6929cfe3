@testable import Baton
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// A Sources bug (not committed): an answer a transport accepts after a kept download ended
/// still rewrites the download's record.
final class ResumableDownloadLateAnswerBugTests: TemporaryFolderTestCase {
    private let url = URL(string: "http://h/files/a.bin")!


    private func kept() -> ResumableDownload {
        ResumableDownload(file: folder.appending(path: "a.part"), record: folder.appending(path: "a.part.json")) { _ in }
    }

    private func fields(_ headers: [String: String]) -> (String) -> String? {
        { name in headers.first { $0.key.lowercased() == name.lowercased() }?.value }
    }

    func test_aLateWholeAnswer_afterAKeptDownloadEnded_doesNotRelabelTheKeptBytes() throws {
        // Attempt 1: 3 bytes of representation "v1" arrived.
        let first = kept()
        var request = URLRequest(url: url)
        first.prepare(&request)
        _ = try first.accept(status: 200, headers: fields(["ETag": "\"v1\"", "Content-Length": "5"]))
        try Data("hel".utf8).write(to: first.file)
        // Attempt 2 asks for the rest; the call is cancelled before its answer's head arrives.
        var second = URLRequest(url: url)
        first.prepare(&second)
        XCTAssertEqual(second.value(forHTTPHeaderField: "If-Range"), "\"v1\"")
        first.end(succeeded: false)
        // The transport, still going, reads the head late: the file changed on the server.
        XCTAssertThrowsError(try first.accept(status: 200, headers: fields(["ETag": "\"v2\"", "Content-Length": "5"])))
        XCTAssertEqual(try Data(contentsOf: first.file), Data("hel".utf8), "the kept bytes are still v1's")

        // A later download must not take the v1 bytes up as v2's.
        let later = kept()
        var resumed = URLRequest(url: url)
        later.prepare(&resumed)
        XCTAssertNotEqual(resumed.value(forHTTPHeaderField: "If-Range"), "\"v2\"", "Range: \(resumed.value(forHTTPHeaderField: "Range") ?? "none")")
    }

    func test_aLateAnswer_afterAKeptDownloadEndedEmpty_leavesNoRecord() throws {
        let download = kept()
        var request = URLRequest(url: url)
        download.prepare(&request)
        download.end(succeeded: false)
        XCTAssertThrowsError(try download.accept(status: 200, headers: fields(["ETag": "\"v1\""])))
        XCTAssertFalse(FileManager.default.fileExists(atPath: download.file.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appending(path: "a.part.json").path), "a record of nothing")
    }
}
