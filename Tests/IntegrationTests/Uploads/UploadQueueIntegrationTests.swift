@testable import BatonClient
@testable import BatonUploads
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport
import XCTest

/// `UploadQueue` against DemoServer: failed photos recorded on disk, resumed by a new process,
/// finished ones forgotten, cancelled ones kept, and one sender per upload.
final class UploadQueueIntegrationTests: FolderTestCase {
    private var queueFolder: URL { folder.appending(path: "uploads") }

    /// A photo of `bytes` as the demo API takes it, from a file the test then deletes.
    private func form(_ bytes: Data, name: String = "photo.jpg") throws -> MultipartForm {
        let file = folder.appending(path: name)
        try bytes.write(to: file)
        var form = MultipartForm()
        form.append("東京", name: "caption")
        form.append(fileAt: file, name: "photo")
        return form
    }

    func test_aFailedUpload_isResumedByANewProcess_andEndsOnTheServer() async throws {
        if let role = ChildProcess.role, role.name == "resume" {
            // The child: a new process, with its own client, sends what the parent left.
            let fields = role.argument.split(separator: "|").map(String.init)
            let client = try Client(baseURL: URL(string: fields[0])!) { $0.headers["Authorization"] = "Bearer \(fields[1])" }
            let queue = UploadQueue(folder: URL(fileURLWithPath: fields[2]), client: client)
            let outcomes = try await queue.send().value
            return try ChildProcess.report(outcomes.map { try $0.decoded(as: Photo.self).sha256 }.joined(separator: ","))
        }
        let review = try await client.send(Reviews.post(facilityID: 1, content: "あとで", rating: 4)).value
        let bytes = Multipart.imageBytes(count: 300_000)
        let queue = UploadQueue(folder: queueFolder, client: client)
        let upload = try queue.add(
            form(bytes), to: "reviews/\(review.id)/photos", headers: ["X-Demo-Fault": "status=400;times=1"]
        )
        try FileManager.default.removeItem(at: folder.appending(path: "photo.jpg"))

        let first = try await queue.send().value

        XCTAssertEqual((first.first?.error as? APIError)?.statusCode, 400)
        XCTAssertEqual(queue.pending().map(\.attempts), [1])
        XCTAssertEqual(queue.pending().first?.id, upload.id)
        XCTAssertNotNil(queue.pending().first?.lastError)

        let resumed = try ChildProcess.run(
            test: "IntegrationTests.UploadQueueIntegrationTests/test_aFailedUpload_isResumedByANewProcess_andEndsOnTheServer",
            role: "resume", argument: [server.baseURL.absoluteString, token!, queueFolder.path].joined(separator: "|")
        )

        XCTAssertEqual(resumed, Fixtures.sha256Hex(bytes))
        XCTAssertEqual(queue.pending(), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: queueFolder.path), [], "the record and its copies are gone")
        let stored = try await stats().photosStored
        XCTAssertEqual(stored, 1)
        let saved = try await client.send(Reviews.get(id: review.id)).value
        XCTAssertEqual(saved.photos.count, 1)
    }

    func test_aSuccessfulUpload_isForgotten_andACancelledOneStaysAsItWas() async throws {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "二枚", rating: 5)).value
        let queue = UploadQueue(folder: queueFolder, client: client)
        let sent = try queue.add(form(Multipart.imageBytes(count: 1000)), to: "reviews/\(review.id)/photos")

        let outcomes = try await queue.send([sent]).value

        XCTAssertEqual(try outcomes.first?.decoded(as: Photo.self).bytes, 1000)
        XCTAssertEqual(queue.pending(), [])

        // A slow upload, cancelled: recorded as it was.
        let slow = try queue.add(form(Multipart.imageBytes(count: 1000)), to: "reviews/\(review.id)/photos", headers: ["X-Demo-Fault": "delay=300s"])
        let sending = queue.send()
        try await waitUntilServerCounts(2, for: "POST /reviews/:review_id/photos")
        sending.cancel()
        let cancelled = await (try? sending.value) == nil

        XCTAssertTrue(cancelled)
        XCTAssertEqual(queue.pending().map(\.id), [slow.id])
        XCTAssertEqual(queue.pending().first?.attempts, 0)
    }

    func test_anUploadClaimedByALiveProcess_isLeftToIt_andAClaimLeftByADeadOne_isTakenOver() async throws {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "取り合い", rating: 3)).value
        let queue = UploadQueue(folder: queueFolder, client: client)
        let upload = try queue.add(form(Multipart.imageBytes(count: 1000)), to: "reviews/\(review.id)/photos")
        let lock = queueFolder.appending(path: upload.id).appending(path: "sending.lock")

        // Process 1 (init) is always alive.
        try Data("1".utf8).write(to: lock)
        let skipped = try await queue.send().value
        // A process id far past any the system hands out.
        try Data("2147483600".utf8).write(to: lock)
        let taken = try await queue.send().value

        XCTAssertEqual(skipped.count, 0)
        XCTAssertEqual(taken.count, 1)
        XCTAssertNil(taken.first?.error)
        XCTAssertEqual(queue.pending(), [])
    }

    func test_add_copiesTheFormsFilesAndParts_readableByTheUserOnly() throws {
        // The usual mask, under which a copy would keep the original's read access for others.
        let mask = umask(0o022)
        defer { umask(mask) }
        let queue = UploadQueue(folder: queueFolder, client: client)
        let photo = try form(Multipart.imageBytes(count: 1000))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: folder.appending(path: "photo.jpg").path)

        let upload = try queue.add(photo, to: "reviews/1/photos")

        let record = queueFolder.appending(path: upload.id)
        let files = try FileManager.default.contentsOfDirectory(atPath: record.path).sorted()
        XCTAssertEqual(files.count, 3, "the caption, the photo's copy and the record: \(files)")
        for file in files {
            let mode = try FileManager.default.attributesOfItem(atPath: record.appending(path: file).path)[.posixPermissions] as? NSNumber
            XCTAssertEqual(mode?.intValue, 0o600, file)
        }
    }

    func test_eachFailedSend_raisesTheAttemptCount_andASuccessForgetsTheUpload() async throws {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "三度目", rating: 4)).value
        let queue = UploadQueue(folder: queueFolder, client: client)
        try queue.add(form(Multipart.imageBytes(count: 1000)), to: "reviews/\(review.id)/photos", headers: ["X-Demo-Fault": "status=400;times=2"])

        _ = try await queue.send().value
        let afterOne = queue.pending()
        _ = try await queue.send().value
        let afterTwo = queue.pending()
        let third = try await queue.send().value

        XCTAssertEqual(afterOne.map(\.attempts), [1])
        XCTAssertEqual(afterTwo.map(\.attempts), [2])
        XCTAssertTrue(afterTwo.first?.lastError?.contains("400") ?? false, "\(afterTwo)")
        XCTAssertNil(third.first?.error)
        XCTAssertEqual(queue.pending(), [])
    }

    func test_twoSendsAtOnce_inOneProcess_sendTheUploadOnce() async throws {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "一度だけ", rating: 5)).value
        let release = DispatchSemaphore(value: 0)
        let held = try makeClient { $0.adapters = [HeldAdapter(release: release)] }
        let queue = UploadQueue(folder: queueFolder, client: held)
        try queue.add(form(Multipart.imageBytes(count: 1000)), to: "reviews/\(review.id)/photos")

        // The first claims the upload as it is called; the second is called while the first sends.
        let first = queue.send()
        let second = queue.send()
        // One release per send, however many requests were made.
        release.signal()
        release.signal()
        let (sent, leftOut) = (try await first.value, try await second.value)

        XCTAssertEqual(sent.count, 1)
        XCTAssertNil(sent.first?.error)
        XCTAssertEqual(leftOut.count, 0, "an upload this process is sending is left out")
        let stored = try await stats().photosStored
        XCTAssertEqual(stored, 1)
    }
}
