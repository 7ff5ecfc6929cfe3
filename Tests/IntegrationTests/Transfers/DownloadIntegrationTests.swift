@testable import BatonSupport
@testable import BatonPromise
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `Client.download(_:to:)` against DemoServer: bytes to a file in bounded memory, error responses,
/// cancellation.
final class DownloadIntegrationTests: FolderTestCase {
    /// The temporary files of downloads Baton has not yet moved or removed.
    private func partialFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.hasPrefix("baton-download-") && $0.hasSuffix(".part") }
    }

    private func bigBody(_ bytes: Int) -> Request<Data> {
        Request(.get, "health", headers: ["X-Demo-Fault": "body-bytes=\(bytes)"])
    }

    func test_aDownload_landsInTheFile_withProgressUpToItsSize_pastTheMemoryLimit() async throws {
        let before = try partialFiles()
        let destination = folder.appending(path: "body.json")
        // Held until the handler is added, so that it sees the reports from the first.
        let release = DispatchSemaphore(value: 0)
        let client = try makeClient {
            $0.maximumResponseSize = 1 << 20
            $0.adapters = [HeldAdapter(release: release)]
        }
        let reported = Locked<[PromiseProgress]>([])

        let download = client.download(bigBody(8 << 20), to: destination)
            .progress { progress in reported.withLock { $0.append(progress) } }
        release.signal()
        let file = try await download.value

        XCTAssertEqual(file, destination)
        let attributes = try FileManager.default.attributesOfItem(atPath: destination.path)
        XCTAssertEqual((attributes[.size] as? NSNumber)?.intValue, 8 << 20)
        let completed = reported.value.map(\.completed)
        XCTAssertGreaterThan(completed.count, 1)
        XCTAssertTrue(zip(completed, completed.dropFirst()).allSatisfy { $0 <= $1 }, "\(completed)")
        XCTAssertEqual(reported.value.last, PromiseProgress(completed: 8 << 20, total: 8 << 20, kind: .bytesReceived))
        XCTAssertEqual(try partialFiles(), before)
    }

    func test_aDownload_replacesAnExistingFile() async throws {
        let destination = folder.appending(path: "photo.bin")
        try Data("old".utf8).write(to: destination)

        _ = try await client.download(bigBody(1000), to: destination).value

        XCTAssertEqual(try Data(contentsOf: destination).count, 1000)
    }

    func test_anErrorAnswer_neverReachesTheFile() async throws {
        let before = try partialFiles()
        let destination = folder.appending(path: "missing.jpg")

        let error = await apiError(client.download(Request<Data>(.get, "photos/999"), to: destination))

        XCTAssertEqual(error?.statusCode, 404)
        XCTAssertEqual(error?.serverMessage, "not_found")
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        XCTAssertEqual(try partialFiles(), before)
    }

    /// The server sends the first mebibyte of a 64 MiB response and then nothing until the client
    /// hangs up (`stall-after`), so the cancel lands mid-transfer however slow the machine, with
    /// the download's temporary file already there.
    func test_cancellingADownload_leavesNoFile() async throws {
        let before = try partialFiles()
        let destination = folder.appending(path: "large.json")
        let started = expectation(description: "bytes arrived")
        started.assertForOverFulfill = false
        let hungUp = serverLog.expectLine(containing: "until the client closed the connection")
        let stalled = Request<Data>(.get, "health", headers: ["X-Demo-Fault": "body-bytes=\(64 << 20);stall-after=\(1 << 20)"])

        let download = client.download(stalled, to: destination)
        // Cancelled once every byte before the stall arrived (the head is well under 2 KiB): a
        // cancel while the server still writes them would end its write, not its stall, and the
        // line awaited below would never come.
        download.progress { progress in if progress.completed >= (1 << 20) - 2048 { started.fulfill() } }
        await fulfillment(of: [started], timeout: 30)
        let partial = Set(try partialFiles()).subtracting(before)
        XCTAssertFalse(partial.isEmpty, "no temporary file while the download runs")
        download.cancel()
        _ = try? await download.value

        XCTAssertEqual(download.state, .cancelled)
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        // The cancel reached the transfer: the client closed the connection.
        await fulfillment(of: [hungUp], timeout: 30)
        // Baton removes the temporary file when URLSession reports the cancelled task complete,
        // on the session's queue, after the promise settled; nothing tells when. So this polls,
        // with a hang guard only (30 s, against the milliseconds it takes).
        let deadline = ContinuousClock.now + .seconds(30)
        while !Set(try partialFiles()).isDisjoint(with: partial), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        XCTAssertEqual(Set(try partialFiles()).intersection(partial), [], "the download's temporary file is still there")
    }
}

/// The source documents' flow: post a review, then upload its photos a few at a time, each photo's
