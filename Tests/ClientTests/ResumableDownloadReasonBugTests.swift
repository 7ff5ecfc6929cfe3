@testable import Baton
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// A Sources bug (not committed, minor): the reason given when a range request is answered
/// whole reads `If-Range` from the answer, which never carries it.
final class ResumableDownloadReasonBugTests: XCTestCase {
    func test_a200ToARangeRequestWithIfRange_saysTheFileMayHaveChanged() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "baton-resumable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reasons = Recorder<String>()
        let download = ResumableDownload(file: folder.appending(path: "a.part"), record: nil) { reasons.append($0) }
        let fields: ([String: String]) -> (String) -> String? = { headers in { name in headers[name] } }
        var first = URLRequest(url: URL(string: "http://h/a")!)
        download.prepare(&first)
        _ = try download.accept(status: 200, headers: fields(["ETag": "\"v1\""]))
        try Data("hel".utf8).write(to: download.file)
        var next = URLRequest(url: URL(string: "http://h/a")!)
        download.prepare(&next)
        XCTAssertEqual(next.value(forHTTPHeaderField: "If-Range"), "\"v1\"", "the request was conditional")

        _ = try download.accept(status: 200, headers: fields(["ETag": "\"v2\""]))
        XCTAssertEqual(reasons.events.count, 1)
        XCTAssertTrue(reasons.events.first?.contains("changed there") ?? false, "\(reasons.events)")
    }
}
