@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `Client.download(_:to:options:)` going on from a kept partial file
/// (`DownloadOptions.keepsPartialFile`), over a StubTransport that answers `Range` requests: a
/// proper `206` continues the file; a `200`, or a `206` starting elsewhere, starts over.
final class ClientDownloadResumeTests: TemporaryFolderTestCase {
    private let url = "http://h/files/a.bin"


    private var destination: URL { folder.appending(path: "a.bin") }
    private var partial: URL { DownloadOptions.partialFile(for: destination) }
    private var record: URL { DownloadOptions.record(for: destination) }

    private var kept: DownloadOptions {
        var options = DownloadOptions()
        options.keepsPartialFile = true
        return options
    }

    /// What an earlier download kept: the first `received` bytes of the representation `etag`
    /// of `length` bytes, and its record, as a transport cut short would leave them.
    private func keepPartialFile(_ received: String, etag: String = "\"v1\"", length: Int) throws {
        let earlier = ResumableDownload(file: partial, record: record) { _ in }
        var request = URLRequest(url: URL(string: url)!)
        earlier.prepare(&request)
        _ = try earlier.accept(status: 200, headers: { ["etag": etag, "content-length": "\(length)"][$0.lowercased()] })
        try Data(received.utf8).write(to: partial)
        earlier.end(succeeded: false)
    }

    private func contents(_ url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    private func rangeFields(_ transport: StubTransport) -> [[String?]] {
        transport.requests.map { [$0.value(forHTTPHeaderField: "Range"), $0.value(forHTTPHeaderField: "If-Range")] }
    }

    func test_thePartialFileAndRecord_areBesideTheDestination() {
        XCTAssertEqual(partial.lastPathComponent, "a.bin.partial")
        XCTAssertEqual(record.lastPathComponent, "a.bin.partial.json")
        XCTAssertEqual(partial.deletingLastPathComponent().standardizedFileURL.path, folder.standardizedFileURL.path)
    }

    func test_aProper206_continuesTheKeptFile() async throws {
        try keepPartialFile("01234", length: 10)
        let transport = StubTransport { request, _ in
            guard request.value(forHTTPHeaderField: "Range") == "bytes=5-" else { return HTTPResponse(statusCode: 200, body: Data("whole!!!!!".utf8)) }
            return HTTPResponse(statusCode: 206, headers: ["Content-Range": "bytes 5-9/10", "ETag": "\"v1\""], body: Data("56789".utf8))
        }
        let client = try makeClient(transport: transport)

        let file = try await client.download(Request<Data>(.get, "files/a.bin"), to: destination, options: kept).value

        XCTAssertEqual(file, destination)
        XCTAssertEqual(try contents(destination), "0123456789")
        XCTAssertEqual(rangeFields(transport), [["bytes=5-", "\"v1\""]])
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial.path), "the kept file went into place")
        XCTAssertFalse(FileManager.default.fileExists(atPath: record.path), "its record goes with it")
    }

    func test_aKeptFileOfAnotherURL_isNotTakenUp() async throws {
        try keepPartialFile("01234", length: 10)
        let transport = constantStub(HTTPResponse(statusCode: 200, body: Data("other file".utf8)))
        let client = try makeClient(transport: transport)
        _ = try await client.download(Request<Data>(.get, "files/b.bin"), to: destination, options: kept).value
        XCTAssertEqual(rangeFields(transport), [[nil, nil]])
        XCTAssertEqual(try contents(destination), "other file")
    }

    func test_a200ToTheRangeRequest_startsOver_andSaysSo() async throws {
        try keepPartialFile("01234", length: 10)
        let monitor = RecordingMonitor()
        let transport = constantStub(HTTPResponse(statusCode: 200, headers: ["ETag": "\"v2\""], body: Data("abcdefghijkl".utf8)))
        let client = try makeClient(transport: transport) { $0.monitors = [monitor] }

        _ = try await client.download(Request<Data>(.get, "files/a.bin"), to: destination, options: kept).value

        XCTAssertEqual(try contents(destination), "abcdefghijkl")
        XCTAssertEqual(rangeFields(transport), [["bytes=5-", "\"v1\""]])
        XCTAssertEqual(monitor.events.filter { $0.kind == .startedOver }.count, 1, "\(monitor.labels)")
    }

    func test_a206StartingElsewhere_failsTheAttempt_andTheRetryStartsOver() async throws {
        try keepPartialFile("01234", length: 10)
        let transport = sequencedStub([
            HTTPResponse(statusCode: 206, headers: ["Content-Range": "bytes 2-9/10"], body: Data("23456789".utf8)),
            HTTPResponse(statusCode: 200, headers: ["Content-Length": "10"], body: Data("0123456789".utf8)),
        ])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])

        _ = try await client.download(Request<Data>(.get, "files/a.bin"), to: destination, options: kept).value

        XCTAssertEqual(try contents(destination), "0123456789")
        XCTAssertEqual(rangeFields(transport), [["bytes=5-", "\"v1\""], [nil, nil]])
    }

    func test_aKeptDownloadThatFailedItsChecks_leavesNoEmptyFile() async throws {
        let transport = constantStub(HTTPResponse(statusCode: 200, headers: ["Content-Length": "10", "ETag": "\"v1\""], body: Data("0123".utf8)))
        let client = try makeClient(transport: transport)
        let error = await awaitError(client.download(Request<Data>(.get, "files/a.bin"), to: destination, options: kept))
        XCTAssertEqual((error as? APIError)?.urlError?.code, .badServerResponse)
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
    }

    func test_removePartialFile_removesTheFileAndItsRecord() throws {
        try keepPartialFile("01234", length: 10)
        XCTAssertTrue(FileManager.default.fileExists(atPath: partial.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: record.path))
        DownloadOptions.removePartialFile(for: destination)
        XCTAssertFalse(FileManager.default.fileExists(atPath: partial.path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: record.path))
    }

    func test_aKeptPartialFileThatIsASymbolicLink_isRefusedBeforeAnythingIsSent_andItsTargetUntouched() async throws {
        let target = folder.appending(path: "someone-elses")
        try Data("someone else's".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: partial, withDestinationURL: target)
        let transport = constantStub(HTTPResponse(statusCode: 200, headers: ["ETag": "\"v1\""], body: Data("abc".utf8)))
        let client = try makeClient(transport: transport)

        let error = await awaitError(client.download(Request<Data>(.get, "files/a.bin"), to: destination, options: kept))

        XCTAssertEqual((error as? APIError)?.kind, .invalidRequest, "\(String(describing: error))")
        XCTAssertTrue("\(String(describing: error))".contains("\(partial.path) is a symbolic link; Baton will not write through it"), "\(String(describing: error))")
        XCTAssertEqual(transport.requests.count, 0)
        XCTAssertEqual(try contents(target), "someone else's")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: partial.path), target.path, "the link was left as it was")
    }

    func test_aKeptRecordThatIsASymbolicLink_isRefusedBeforeAnythingIsSent_andItsTargetUntouched() async throws {
        let target = folder.appending(path: "someone-elses.json")
        try Data("{}".utf8).write(to: target)
        try FileManager.default.createSymbolicLink(at: record, withDestinationURL: target)
        let transport = constantStub(HTTPResponse(statusCode: 200, headers: ["ETag": "\"v1\""], body: Data("abc".utf8)))
        let client = try makeClient(transport: transport)

        let error = await awaitError(client.download(Request<Data>(.get, "files/a.bin"), to: destination, options: kept))

        XCTAssertTrue("\(String(describing: error))".contains("\(record.path) is a symbolic link; Baton will not write through it"), "\(String(describing: error))")
        XCTAssertEqual(transport.requests.count, 0)
        XCTAssertEqual(try contents(target), "{}")
        // The refused call let go of the destination: once the link is gone, a download goes on.
        try FileManager.default.removeItem(at: record)
        _ = try await client.download(Request<Data>(.get, "files/a.bin"), to: destination, options: kept).value
    }

    func test_aSecondKeptDownloadToTheSameDestination_failsAtOnce_andTheFirstGoesOn() async throws {
        let release = DispatchSemaphore(value: 0)
        let transport = StubTransport { _, _ in
            release.wait()
            return HTTPResponse(statusCode: 200, headers: ["ETag": "\"v1\"", "Content-Length": "3"], body: Data("abc".utf8))
        }
        let client = try makeClient(transport: transport)
        let first = client.download(Request<Data>(.get, "files/a.bin"), to: destination, options: kept)

        let second = client.download(Request<Data>(.get, "files/a.bin"), to: destination, options: kept)
        // Refused at once: a second download running would wait at the transport.
        XCTAssertFalse(second.isPending, "a second download of the same kept file ran")
        defer { for _ in 0..<3 { release.signal() } }
        guard !second.isPending else { return second.cancel() }
        do {
            _ = try await second.value
            XCTFail("a second download of the same kept file ran")
        } catch let error as APIError {
            XCTAssertEqual(error.kind, .invalidRequest)
            XCTAssertTrue("\(error)".contains("another download"), "\(error)")
        }
        release.signal()
        _ = try await first.value
        XCTAssertEqual(try Data(contentsOf: destination), Data("abc".utf8))
        // Once the first is over, the destination is free again.
        let third = client.download(Request<Data>(.get, "files/a.bin"), to: destination, options: kept)
        release.signal()
        _ = try await third.value
    }
}
