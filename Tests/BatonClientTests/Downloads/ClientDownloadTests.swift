@testable import BatonClient
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `Client.download(_:to:)` over StubTransport, which keeps bodies in memory (so each response is
/// put into the download's file by FileDownload): the destination written, the checks that fail
/// a download, and no temporary file left behind after a success, a failure or a cancellation.
final class ClientDownloadTests: XCTestCase {
    private var folder: URL!
    /// The system's temporary folder for the test: its own, so that only this test's downloads
    /// are in it (other processes on the machine make `baton-download-*` files too).
    private var temporary: URL!
    private var previousTMPDIR: String?

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = FileManager.default.temporaryDirectory.appending(path: "baton-client-download-\(UUID().uuidString)")
        temporary = folder.appending(path: "tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        previousTMPDIR = ProcessInfo.processInfo.environment["TMPDIR"]
        setenv("TMPDIR", temporary.path, 1)
        XCTAssertEqual(FileManager.default.temporaryDirectory.standardizedFileURL.path, temporary.standardizedFileURL.path)
    }

    override func tearDown() {
        if let previousTMPDIR { setenv("TMPDIR", previousTMPDIR, 1) } else { unsetenv("TMPDIR") }
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    private var destination: URL { folder.appending(path: "photo.jpg") }

    /// The download files in the test's temporary folder.
    private func temporaryDownloads() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("baton-download-") && $0.hasSuffix(".part") }
    }

    private func contents(_ url: URL) throws -> String {
        String(decoding: try Data(contentsOf: url), as: UTF8.self)
    }

    private func photo(_ body: String, headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(statusCode: 200, headers: ["Content-Type": "image/jpeg"].merging(headers) { $1 }, body: Data(body.utf8))
    }

    // MARK: Success

    func test_a200_writesTheDestination_andLeavesNoTemporaryFile() async throws {
        let transport = constantStub(photo("JPEG bytes", headers: ["Content-Length": "10"]))
        let client = try makeClient(transport: transport)

        let file = try await client.download(Request<Data>(.get, "photos/1"), to: destination).value

        XCTAssertEqual(file, destination)
        XCTAssertEqual(try contents(destination), "JPEG bytes")
        XCTAssertEqual(try temporaryDownloads(), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: DownloadOptions.partialFile(for: destination).path))
        XCTAssertNil(onlyRequest(transport)?.value(forHTTPHeaderField: "Range"))
    }

    /// A transport of one's own that ignores the download's file and hands the body back in
    /// memory is held to the memory limit, and the sentence names it as the cause.
    func test_aTransportHandingADownloadBackInMemory_pastTheLimit_isNamed() async throws {
        let client = try makeClient(transport: constantStub(photo(String(repeating: "x", count: 2048)))) {
            $0.maximumResponseSize = 1024
        }

        let error = await awaitError(client.download(Request<Data>(.get, "photos/1"), to: destination))

        XCTAssertEqual((error as? APIError)?.kind, .responseTooLarge)
        XCTAssertEqual(
            "\(error.map { "\($0)" } ?? "none")",
            "GET http://h/photos/1 is a download, but its transport StubTransport handed the body back in memory, where it is larger "
                + "than the client's maximumResponseSize of 1 KiB: the transport does not honour TransferOptions.destination, "
                + "which asks for the body in the download's file (see Transport)."
        )
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        XCTAssertEqual(try temporaryDownloads(), [])
    }

    func test_a200_replacesAFileAtTheDestination() async throws {
        try Data("old and longer contents".utf8).write(to: destination)
        let client = try makeClient(transport: constantStub(photo("new")))
        _ = try await client.download(Request<Data>(.get, "photos/1"), to: destination).value
        XCTAssertEqual(try contents(destination), "new")
    }

    func test_aNamedDigestThatMatches_passes() async throws {
        let digest = "sha-256=:LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=:"
        let transport = constantStub(photo("hello", headers: ["Repr-Digest": digest]))
        let client = try makeClient(transport: transport)
        _ = try await client.download(Request<Data>(.get, "photos/1"), to: destination).value
        XCTAssertEqual(try contents(destination), "hello")
        XCTAssertEqual(onlyRequest(transport)?.value(forHTTPHeaderField: "Want-Repr-Digest"), "sha-256=10")
    }

    // MARK: Failure

    func test_anErrorAnswer_neverReachesTheDestination_andLeavesNoTemporaryFile() async throws {
        let client = try makeClient(transport: constantStub(HTTPResponse(statusCode: 404, body: Data("missing".utf8))))
        let error = await awaitError(client.download(Request<Data>(.get, "photos/1"), to: destination))
        XCTAssertEqual((error as? APIError)?.statusCode, 404)
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        XCTAssertEqual(try temporaryDownloads(), [])
    }

    func test_aShortAnswer_failsTheDownload_andLeavesNoTemporaryFile() async throws {
        let client = try makeClient(transport: constantStub(photo("JPEG", headers: ["Content-Length": "10"])))
        let error = await awaitError(client.download(Request<Data>(.get, "photos/1"), to: destination))
        XCTAssertEqual((error as? APIError)?.urlError?.code, .badServerResponse)
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        XCTAssertEqual(try temporaryDownloads(), [])
    }

    func test_aWrongDigest_failsTheDownload_andLeavesNoTemporaryFile() async throws {
        let digest = "sha-256=:LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=:"
        let client = try makeClient(transport: constantStub(photo("world", headers: ["Repr-Digest": digest])))
        let error = await awaitError(client.download(Request<Data>(.get, "photos/1"), to: destination))
        XCTAssertEqual((error as? APIError)?.urlError?.code, .badServerResponse)
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        XCTAssertEqual(try temporaryDownloads(), [])
    }

    func test_aFailedCheck_isRetried_andTheRetryStartsOver() async throws {
        let transport = sequencedStub([photo("JPEG", headers: ["Content-Length": "10", "ETag": "\"v1\""]), photo("JPEG bytes")])
        let client = try makeClient(transport: transport, retriers: [fastRetryPolicy])
        _ = try await client.download(Request<Data>(.get, "photos/1"), to: destination).value
        XCTAssertEqual(try contents(destination), "JPEG bytes")
        XCTAssertEqual(transport.requests.map { $0.value(forHTTPHeaderField: "Range") }, [nil, nil], "the short file was emptied")
        XCTAssertEqual(try temporaryDownloads(), [])
    }

    func test_aDestinationThatCannotBeWritten_failsTheDownload_andLeavesNoTemporaryFile() async throws {
        let client = try makeClient(transport: constantStub(photo("JPEG bytes")))
        let unreachable = folder.appending(path: "missing/photo.jpg")
        let error = await awaitError(client.download(Request<Data>(.get, "photos/1"), to: unreachable))
        XCTAssertEqual((error as? APIError)?.urlError?.code, .cannotMoveFile)
        XCTAssertEqual(try temporaryDownloads(), [])
    }

    // MARK: Cancellation

    func test_cancelledInFlight_leavesNoTemporaryFile() async throws {
        let transport = ManualTransport()
        let client = try makeClient(transport: transport)
        let download = client.download(Request<Data>(.get, "photos/1"), to: destination)
        XCTAssertEqual(transport.count, 1)
        download.cancel()
        _ = await awaitError(download)
        XCTAssertEqual(transport.exchange(0).cancellations.value, 1)
        XCTAssertEqual(try temporaryDownloads(), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
    }

    func test_cancelledWhileWaitingToRetry_removesTheTemporaryFileItHadMade() async throws {
        let retrying = expectation(description: "the download waits to retry")
        let monitor = RecordingMonitor { event in if event.kind == .retrying { retrying.fulfill() } }
        let transport = constantStub(photo("JPEG", headers: ["Content-Length": "10", "ETag": "\"v1\""]))
        let client = try makeClient(transport: transport, retriers: [RetryPolicy(baseDelay: .seconds(60), maximumDelay: .seconds(60))]) {
            $0.monitors = [monitor]
        }
        let download = client.download(Request<Data>(.get, "photos/1"), to: destination)
        await fulfillment(of: [retrying], timeout: 30)
        XCTAssertEqual(try temporaryDownloads().count, 1, "the first answer made the file")

        download.cancel()
        let error = await awaitError(download)
        XCTAssertTrue(error is CancellationError, "got \(String(describing: error))")
        XCTAssertEqual(try temporaryDownloads(), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
    }
}
