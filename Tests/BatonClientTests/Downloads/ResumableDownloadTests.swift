@testable import BatonPromise
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// ResumableDownload's range logic, without a network: which attempts ask for the rest of the
/// file (`Range`, `If-Range`), and where each response goes (`accept(status:headers:)`): a `206`
/// that starts where the file ends, or the whole file again.
final class ResumableDownloadTests: TemporaryFolderTestCase {
    private let url = "http://h/files/a.bin"


    /// A download into a file of the test's folder, and the reasons it started over.
    private func download() -> (ResumableDownload, Recorder<String>) {
        let reasons = Recorder<String>()
        let download = ResumableDownload(file: folder.appending(path: "a.part"), record: nil) { reasons.append($0) }
        return (download, reasons)
    }

    private func request(_ url: String? = nil) -> URLRequest {
        URLRequest(url: URL(string: url ?? self.url)!)
    }

    private func fields(_ headers: [String: String]) -> (String) -> String? {
        { name in headers.first { $0.key.lowercased() == name.lowercased() }?.value }
    }

    private func append(_ text: String, to download: ResumableDownload) throws {
        let handle = try FileHandle(forWritingTo: download.file)
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
    }

    /// A first attempt answered `200` with `headers`, of which `received` arrived.
    private func firstAttempt(_ download: ResumableDownload, headers: [String: String], received: String) throws {
        var first = request()
        download.prepare(&first)
        _ = try download.accept(status: 200, headers: fields(headers))
        try append(received, to: download)
    }

    private func rangeFields(_ request: URLRequest) -> [String?] {
        [request.value(forHTTPHeaderField: "Range"), request.value(forHTTPHeaderField: "If-Range")]
    }

    // MARK: prepare

    func test_aFirstAttempt_asksForTheWhole_andForTheDigest() {
        let (download, reasons) = download()
        var first = request()
        download.prepare(&first)
        XCTAssertEqual(rangeFields(first), [nil, nil])
        XCTAssertEqual(first.value(forHTTPHeaderField: "Want-Repr-Digest"), "sha-256=10")
        XCTAssertEqual(reasons.events, [])
        XCTAssertNil(download.progressSoFar)
    }

    func test_bytesWithAStrongETag_fromTheSameURL_askForTheRest() throws {
        let (download, reasons) = download()
        try firstAttempt(download, headers: ["ETag": "\"v1\"", "Content-Length": "10"], received: "0123")
        var next = request()
        download.prepare(&next)
        XCTAssertEqual(rangeFields(next), ["bytes=4-", "\"v1\""])
        XCTAssertEqual(reasons.events, [])
        XCTAssertEqual(download.progressSoFar, PromiseProgress(completed: 4, total: 10, kind: .bytesReceived))
    }

    func test_lastModified_isTheValidator_withoutAnETag_whenASecondOrMoreBeforeTheDate() throws {
        let date = "Wed, 21 Oct 2026 07:28:00 GMT"
        let (download, _) = download()
        try firstAttempt(download, headers: ["Last-Modified": date, "Date": "Wed, 21 Oct 2026 07:28:01 GMT"], received: "01")
        var next = request()
        download.prepare(&next)
        XCTAssertEqual(rangeFields(next), ["bytes=2-", date])
    }

    func test_aWeakETag_orADateThatMayNameTwoVersions_cannotBeResumedFrom() throws {
        let date = "Wed, 21 Oct 2026 07:28:00 GMT"
        for headers in [["ETag": "W/\"weak\"", "Last-Modified": date, "Date": "Wed, 21 Oct 2026 09:00:00 GMT"],
                        ["Last-Modified": date, "Date": date], ["Last-Modified": date]] {
            let (download, _) = download()
            try firstAttempt(download, headers: headers, received: "01")
            var next = request()
            download.prepare(&next)
            XCTAssertEqual(rangeFields(next), [nil, nil], "\(headers)")
        }
    }

    func test_anEndpointsOwnRange_isSentAsItIs_andNeverResumed() throws {
        let (download, _) = download()
        var first = request()
        first.setValue("bytes=0-1", forHTTPHeaderField: "Range")
        download.prepare(&first)
        XCTAssertEqual(rangeFields(first), ["bytes=0-1", nil])
        let placement = try download.accept(status: 206, headers: { ["Content-Range": "bytes 0-1/10", "ETag": "\"v1\""][$0] })
        XCTAssertEqual(placement.offset, 0)
        XCTAssertNil(placement.total)
    }

    func test_a206OfAnotherVersion_isRefused_andStartsOver() throws {
        let (download, reasons) = download()
        try firstAttempt(download, headers: ["ETag": "\"v1\"", "Content-Length": "10"], received: "0123")
        var next = request()
        download.prepare(&next)
        XCTAssertThrowsError(try download.accept(status: 206, headers: { ["Content-Range": "bytes 4-9/10", "ETag": "\"v2\""][$0] }))
        XCTAssertEqual(download.length, 0)
        XCTAssertEqual(reasons.count, 1)
        var again = request()
        download.prepare(&again)
        XCTAssertEqual(rangeFields(again), [nil, nil])
    }

    func test_a206OfAnotherLength_isRefused() throws {
        let (download, _) = download()
        try firstAttempt(download, headers: ["ETag": "\"v1\"", "Content-Length": "10"], received: "0123")
        var next = request()
        download.prepare(&next)
        XCTAssertThrowsError(try download.accept(status: 206, headers: { ["Content-Range": "bytes 4-11/12"][$0] }))
        XCTAssertEqual(download.length, 0)
    }

    func test_bytesWithoutAValidator_startOver() throws {
        let (download, reasons) = download()
        try firstAttempt(download, headers: ["ETag": "W/\"weak\""], received: "0123")
        var next = request()
        download.prepare(&next)
        XCTAssertEqual(rangeFields(next), [nil, nil])
        XCTAssertEqual(download.length, 0)
        XCTAssertEqual(reasons.count, 1)
        XCTAssertTrue(reasons.events[0].contains("no validator"), reasons.events[0])
    }

    func test_bytesOfACodedAnswer_startOver() throws {
        let (download, reasons) = download()
        try firstAttempt(download, headers: ["ETag": "\"v1\"", "Content-Encoding": "gzip"], received: "0123")
        var next = request()
        download.prepare(&next)
        XCTAssertEqual(rangeFields(next), [nil, nil])
        XCTAssertEqual(download.length, 0)
        XCTAssertEqual(reasons.count, 1)
    }

    func test_bytesFromAnotherURL_startOver() throws {
        let (download, reasons) = download()
        try firstAttempt(download, headers: ["ETag": "\"v1\""], received: "0123")
        var elsewhere = request("http://h/files/b.bin")
        download.prepare(&elsewhere)
        XCTAssertEqual(rangeFields(elsewhere), [nil, nil])
        XCTAssertEqual(download.length, 0)
        XCTAssertEqual(reasons.count, 1)
        XCTAssertTrue(reasons.events[0].contains("another URL"), reasons.events[0])
    }

    // MARK: accept

    func test_a206StartingWhereTheFileEnds_goesOnFromThere() throws {
        let (download, reasons) = download()
        try firstAttempt(download, headers: ["ETag": "\"v1\""], received: "0123")
        var next = request()
        download.prepare(&next)
        let placement = try download.accept(status: 206, headers: fields(["Content-Range": "bytes 4-9/10"]))
        XCTAssertEqual(placement.offset, 4)
        XCTAssertEqual(placement.total, 10)
        XCTAssertEqual(download.length, 4, "what was there stays")
        XCTAssertEqual(reasons.events, [])
    }

    func test_a206StartingElsewhere_throws_andEmptiesTheFile() throws {
        let (download, reasons) = download()
        try firstAttempt(download, headers: ["ETag": "\"v1\""], received: "0123")
        var next = request()
        download.prepare(&next)
        XCTAssertThrowsError(try download.accept(status: 206, headers: fields(["Content-Range": "bytes 2-9/10"]))) { error in
            XCTAssertEqual((error as? URLError)?.code, .badServerResponse)
        }
        XCTAssertEqual(download.length, 0)
        XCTAssertEqual(reasons.count, 1)

        var after = request()
        download.prepare(&after)
        XCTAssertEqual(rangeFields(after), [nil, nil], "the next attempt starts over")
    }

    func test_a206WithoutContentRange_orUnasked_throws() throws {
        let (asked, _) = download()
        try firstAttempt(asked, headers: ["ETag": "\"v1\""], received: "0123")
        var next = request()
        asked.prepare(&next)
        XCTAssertThrowsError(try asked.accept(status: 206, headers: fields([:])))

        let (unasked, _) = download()
        var first = request()
        unasked.prepare(&first)
        XCTAssertThrowsError(try unasked.accept(status: 206, headers: fields(["Content-Range": "bytes 0-9/10"])))
    }

    func test_a200AfterARangeRequest_emptiesTheFile_andSaysItStartedOver() throws {
        let (download, reasons) = download()
        try firstAttempt(download, headers: ["ETag": "\"v1\""], received: "0123")
        var next = request()
        download.prepare(&next)
        let placement = try download.accept(status: 200, headers: fields(["ETag": "\"v2\"", "Content-Length": "12"]))
        XCTAssertEqual(placement.offset, 0)
        XCTAssertEqual(placement.total, 12)
        XCTAssertEqual(download.length, 0)
        XCTAssertEqual(reasons.count, 1)
    }

    func test_a200ToAFirstAttempt_doesNotStartOver() throws {
        let (download, reasons) = download()
        var first = request()
        download.prepare(&first)
        let placement = try download.accept(status: 200, headers: fields(["Content-Length": "5"]))
        XCTAssertEqual(placement.offset, 0)
        XCTAssertEqual(placement.total, 5)
        XCTAssertTrue(FileManager.default.fileExists(atPath: download.file.path), "the file is made")
        XCTAssertEqual(reasons.events, [])
    }

    func test_a416ToARangeRequest_startsOver_andOtherwiseIsAnAnswer() throws {
        let (download, reasons) = download()
        XCTAssertFalse(download.startsOver(after: HTTPResponse(statusCode: 416)), "nothing was asked")
        try firstAttempt(download, headers: ["ETag": "\"v1\""], received: "0123")
        var next = request()
        download.prepare(&next)
        XCTAssertTrue(download.startsOver(after: HTTPResponse(statusCode: 416, headers: ["Content-Range": "bytes */3"])))
        XCTAssertEqual(download.length, 0)
        XCTAssertEqual(reasons.count, 1)
    }

    // MARK: Why it starts over

    /// The reason a whole response to a range request gives comes from the request's `If-Range`
    /// (the response never carries it): the file may have changed on the server.
    func test_a200ToARangeRequestWithIfRange_saysTheFileMayHaveChanged() throws {
        let (download, reasons) = download()
        try firstAttempt(download, headers: ["ETag": "\"v1\""], received: "hel")
        var next = request()
        download.prepare(&next)
        XCTAssertEqual(next.value(forHTTPHeaderField: "If-Range"), "\"v1\"", "the request was conditional")

        _ = try download.accept(status: 200, headers: fields(["ETag": "\"v2\""]))
        XCTAssertEqual(reasons.events.count, 1)
        XCTAssertTrue(reasons.events.first?.contains("changed there") ?? false, "\(reasons.events)")
    }
}
