@testable import BatonSupport
@testable import BatonPromise
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `Client.download(_:to:options:)` taking a cut transfer up where it stopped, against DemoServer:
/// the file whole and right, the bytes on the wire about one file's worth, a changed file started
/// over, and a partial file finished by another process.
final class ResumableDownloadIntegrationTests: FolderTestCase {
    /// The photo's size: 20 MiB where the issue names it, 4 MiB where any size shows the same.
    private static let size = 20 << 20
    private static let smallSize = 4 << 20
    private var bytes: Data!
    private var photoID: Int!

    /// Stores a photo of `size` bytes, as `bytes` and `photoID`.
    private func storePhoto(size: Int) async throws {
        bytes = Self.pattern(count: size)
        let review = try await client.send(Reviews.post(facilityID: 1, content: "大きな写真", rating: 5)).value
        photoID = try await client.send(Photos.upload(bytes, index: 0, to: review.id)).value.id
    }

    /// `count` bytes: a mebibyte of the test photos' pattern, repeated, then cut; quick to make
    /// even in a debug build.
    private static func pattern(count: Int) -> Data {
        let piece = Multipart.imageBytes(count: 1 << 20)
        var data = Data(capacity: count)
        while data.count < count { data.append(piece.prefix(count - data.count)) }
        return data
    }

    /// The bytes written to clients since `before`.
    private func bytesSent(since before: Stats) async throws -> Int {
        try await stats().bytesSent - before.bytesSent
    }

    /// A download of the photo cut after `fraction` of it, once, then resumed by the retry policy.
    private func downloadCut(at fraction: Double) async throws {
        try await storePhoto(size: Self.size)
        let before = try await stats()
        let events = EventRecorder()
        let client = try makeClient { $0.monitors = [events] }
        let destination = folder.appending(path: "photo-\(fraction).jpg")
        let progress = Locked<[PromiseProgress]>([])
        let cut = Int(Double(Self.size) * fraction)
        let request = Photos.download(id: photoID, headers: ["X-Demo-Fault": "drop-after=\(cut);times=1"])

        let file = try await client.download(request, to: destination).progress { report in progress.withLock { $0.append(report) } }.value

        XCTAssertEqual(Fixtures.sha256Hex(try Data(contentsOf: file)), Fixtures.sha256Hex(bytes))
        let sent = try await bytesSent(since: before)
        XCTAssertGreaterThanOrEqual(sent, Self.size)
        XCTAssertLessThan(sent, Self.size + (64 << 10), "about one file's worth on the wire, not \(sent) bytes")
        XCTAssertEqual(events.events.filter { $0.kind == .retrying }.count, 1)
        XCTAssertEqual(events.events.filter { $0.kind == .startedOver }.count, 0)
        let received = progress.value.filter { $0.kind == .bytesReceived }.map(\.completed)
        XCTAssertTrue(zip(received, received.dropFirst()).allSatisfy { $0 <= $1 }, "the progress went back: \(received)")
        XCTAssertEqual(received.last, Int64(Self.size))
        let partial = try await stats().partialResponses
        XCTAssertEqual(partial, 1, "the second attempt asked for the rest")
    }

    func test_aDownloadDroppedAt30Percent_finishesWhole_fetchingAboutOneFile() async throws {
        try await downloadCut(at: 0.3)
    }

    func test_aDownloadDroppedAt90Percent_finishesWhole_fetchingAboutOneFile() async throws {
        try await downloadCut(at: 0.9)
    }

    func test_aPhotoChangedBetweenAttempts_startsOver_andEndsAsTheNewPhoto() async throws {
        try await storePhoto(size: Self.smallSize)
        let replacement = Data(Self.pattern(count: Self.smallSize / 2 + 7).reversed())
        let events = EventRecorder()
        let changer = try makeClient()
        let photoID = photoID!
        // Before the second attempt goes, the photo changes on the server.
        let change = ChangeBeforeRetry { _ = try await changer.send(Request<Photo>(.put, "photos/\(photoID)", body: .data(replacement, contentType: "image/jpeg"))).value }
        let client = try makeClient { configuration in
            configuration.monitors = [events]
            configuration.adapters = [change]
        }
        let destination = folder.appending(path: "changed.jpg")
        let request = Photos.download(id: photoID, headers: ["X-Demo-Fault": "drop-after=\(Self.smallSize / 2);times=1"])

        let file = try await client.download(request, to: destination).value

        XCTAssertEqual(Fixtures.sha256Hex(try Data(contentsOf: file)), Fixtures.sha256Hex(replacement))
        let startedOver = events.events.filter { $0.kind == .startedOver }
        XCTAssertEqual(startedOver.count, 1)
        XCTAssertTrue(startedOver.first?.reason?.contains("changed") ?? false, "\(startedOver.first?.reason ?? "")")
        let partial = try await stats().partialResponses
        XCTAssertEqual(partial, 0, "If-Range did not match: the whole new photo came")
    }

    func test_aPartialFileKept_isFinishedByAnotherProcess() async throws {
        let destination = folder.appending(path: "kept.jpg")
        if let role = ChildProcess.role, role.name == "finish" {
            let fields = role.argument.split(separator: "|").map(String.init)
            let client = try Client(baseURL: URL(string: fields[0])!) { $0.headers["Authorization"] = "Bearer \(fields[1])" }
            var options = DownloadOptions()
            options.keepsPartialFile = true
            let file = try await client.download(Photos.download(id: Int(fields[3])!), to: URL(fileURLWithPath: fields[2]), options: options).value
            return try ChildProcess.report(Fixtures.sha256Hex(try Data(contentsOf: file)))
        }
        try await storePhoto(size: Self.smallSize)
        var options = DownloadOptions()
        options.keepsPartialFile = true
        let client = try makeClient { $0.retryPolicy = nil }
        let cut = Self.smallSize / 4
        let failed = await apiError(client.download(Photos.download(id: photoID, headers: ["X-Demo-Fault": "drop-after=\(cut)"]), to: destination, options: options))
        XCTAssertNotNil(failed)
        let partialFile = DownloadOptions.partialFile(for: destination)
        let kept = (try FileManager.default.attributesOfItem(atPath: partialFile.path)[.size] as? NSNumber)?.intValue ?? 0
        XCTAssertGreaterThan(kept, 0, "what arrived stays beside the destination")
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        let before = try await stats()

        let finished = try ChildProcess.run(
            test: "IntegrationTests.ResumableDownloadIntegrationTests/test_aPartialFileKept_isFinishedByAnotherProcess",
            role: "finish", argument: [server.baseURL.absoluteString, token!, destination.path, String(photoID)].joined(separator: "|")
        )

        XCTAssertEqual(finished, Fixtures.sha256Hex(bytes))
        let sent = try await bytesSent(since: before)
        XCTAssertLessThan(sent, Self.smallSize - kept + (64 << 10), "only the rest was sent")
        XCTAssertFalse(FileManager.default.fileExists(atPath: partialFile.path), "the partial file became the destination")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["kept.jpg"], "no record left behind")
    }

    func test_aFailedDownload_notKept_leavesNothingBehind() async throws {
        try await storePhoto(size: Self.smallSize)
        let temporary = { try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).filter { $0.hasPrefix("baton-download-") } }
        let before = try temporary()
        let client = try makeClient { $0.retryPolicy = nil }
        let destination = folder.appending(path: "lost.jpg")

        _ = await apiError(client.download(Photos.download(id: photoID, headers: ["X-Demo-Fault": "drop-after=100000"]), to: destination))

        XCTAssertEqual(try temporary(), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }
}

/// An adapter that runs `change` before the second attempt of each call, once.
private struct ChangeBeforeRetry: RequestAdapter {
    let change: @Sendable () async throws -> Void

    init(_ change: @escaping @Sendable () async throws -> Void) {
        self.change = change
    }

    func adapt(_ request: URLRequest, context: AttemptContext) async throws -> URLRequest {
        if context.attempt == 2 { try await change() }
        return request
    }
}
