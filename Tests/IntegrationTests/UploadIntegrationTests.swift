import BatonLocking
import Baton
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `MultipartForm` and file bodies against DemoServer's photo upload: what arrives, bodies
/// streamed from disk, temporary files, cancellation.
final class UploadIntegrationTests: IntegrationTestCase {
    private var folder: URL!

    override func setUp() async throws {
        try await super.setUp()
        folder = FileManager.default.temporaryDirectory.appending(path: "baton-upload-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(at: folder)
        try await super.tearDown()
    }

    /// A photo's upload to review `reviewID` as a `MultipartForm`.
    private func upload(_ form: MultipartForm, to reviewID: Int, through client: Client? = nil) -> Promise<Photo> {
        (client ?? self.client).send(Request<Photo>(.post, "reviews/\(reviewID)/photos", body: .multipart(form)))
    }

    /// The temporary files Baton has spooled bodies to and not yet removed.
    private func spooledFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.hasPrefix("baton-upload-") && $0.hasSuffix(".multipart") }
    }

    func test_threePhotosInParallel_arriveByteForByte() async throws {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "三枚", rating: 4)).value
        let images = (1...3).map { Multipart.imageBytes(count: 200_000 * $0) }
        // Held until `all` follows them: an upload finished before it would count with no size.
        let release = DispatchSemaphore(value: 0)
        let held = makeClient { $0.adapters = [HeldAdapter(release: release)] }
        let uploads = images.enumerated().map { index, bytes in
            var form = MultipartForm()
            form.append("写真 \(index)", name: "caption")
            form.append(bytes, name: "photo", filename: "photo\(index).jpg", contentType: "image/jpeg")
            return upload(form, to: review.id, through: held)
        }

        let reported = Locked<[PromiseProgress]>([])
        let all = Promise.all(uploads).progress { progress in reported.withLock { $0.append(progress) } }
        for _ in uploads { release.signal() }
        let photos = try await all.value

        XCTAssertEqual(photos.map(\.sha256), images.map(Fixtures.sha256Hex))
        XCTAssertEqual(photos.map(\.bytes), images.map(\.count))
        // The bar of all three: the bytes sent, summed, up to the three bodies' length.
        let progress = reported.value
        XCTAssertTrue(progress.allSatisfy { $0.kind == .bytesSent }, "\(progress)")
        XCTAssertTrue(zip(progress, progress.dropFirst()).allSatisfy { $0.completed < $1.completed }, "\(progress)")
        let total = try XCTUnwrap(progress.last?.total, "\(progress)")
        XCTAssertGreaterThan(total, Int64(images.map(\.count).reduce(0, +)))
        XCTAssertEqual(progress.last?.completed, total)
    }

    func test_aFilePart_andAFileBody_streamFromDisk() async throws {
        let bytes = Multipart.imageBytes(count: 2_000_000)
        let file = folder.appending(path: "夜景.jpg")
        try bytes.write(to: file)
        let review = try await client.send(Reviews.post(facilityID: 1, content: "file", rating: 5)).value
        var form = MultipartForm()
        form.append(fileAt: file, name: "photo")

        let photo = try await upload(form, to: review.id).value
        let echo = try await client.send(Demo.echo(.post, body: .file(file, contentType: "image/jpeg"))).value

        XCTAssertEqual(photo.sha256, Fixtures.sha256Hex(bytes))
        XCTAssertEqual(echo.bodySHA256, Fixtures.sha256Hex(bytes))
        XCTAssertEqual(echo.headers["content-type"], "image/jpeg")
    }

    func test_fileNamesWithQuotesLineBreaksAndJapanese_arriveIntact() async throws {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "名前", rating: 3)).value
        let names = [#"say "cheese".jpg"#, "two\r\nlines.jpg", "東京タワー 夜景.jpg", #"a"; name="forged.jpg"#, "100%.jpg"]
        for name in names {
            var form = MultipartForm()
            form.append(Multipart.imageBytes(count: 1000), name: "photo", filename: name, contentType: "image/jpeg")
            let photo = try await upload(form, to: review.id).value
            XCTAssertEqual(photo.filename, name)
        }

        // A file whose own name needs escaping, named after it.
        let file = folder.appending(path: "写真 \"1\"\n.jpg")
        try Multipart.imageBytes(count: 1000).write(to: file)
        var form = MultipartForm()
        form.append(fileAt: file, name: "photo")
        let photo = try await upload(form, to: review.id).value
        XCTAssertEqual(photo.filename, "写真 \"1\"\n.jpg")
    }

    func test_aLargeForm_streamsFromATemporaryFile_withProgressUpToItsSize_andTheFileIsRemoved() async throws {
        let bytes = Multipart.imageBytes(count: 20_000_000)
        let file = folder.appending(path: "large.jpg")
        try bytes.write(to: file)
        let review = try await client.send(Reviews.post(facilityID: 1, content: "large", rating: 5)).value
        var form = MultipartForm()
        form.append(fileAt: file, name: "photo")
        let reported = Locked<[PromiseProgress]>([])
        let before = try spooledFiles()

        let photo = try await upload(form, to: review.id).progress { progress in reported.withLock { $0.append(progress) } }.value

        XCTAssertEqual(photo.sha256, Fixtures.sha256Hex(bytes))
        // The body: the file and the part's few header bytes.
        let sending = reported.value.filter { ($0.total ?? 0) > Int64(bytes.count) }
        XCTAssertGreaterThan(sending.count, 1)
        XCTAssertLessThan(sending.last?.total ?? 0, Int64(bytes.count) + 1000)
        XCTAssertTrue(zip(sending, sending.dropFirst()).allSatisfy { $0.completed <= $1.completed }, "\(sending)")
        XCTAssertEqual(sending.last?.completed, sending.last?.total)
        XCTAssertEqual(try spooledFiles(), before)
    }

    func test_cancellingALargeUpload_removesTheTemporaryFile_andStoresNoPhoto() async throws {
        let file = folder.appending(path: "large.jpg")
        try Multipart.imageBytes(count: 20_000_000).write(to: file)
        let review = try await client.send(Reviews.post(facilityID: 1, content: "cancelled", rating: 5)).value
        var form = MultipartForm()
        form.append(fileAt: file, name: "photo")
        let started = expectation(description: "bytes are on the wire")
        started.assertForOverFulfill = false
        let before = try spooledFiles()

        let upload = upload(form, to: review.id)
        upload.progress { progress in if progress.completed > 0 { started.fulfill() } }
        await fulfillment(of: [started], timeout: 30)
        upload.cancel()
        _ = try? await upload.value

        XCTAssertEqual(try spooledFiles(), before)
        let stats = try await stats()
        XCTAssertEqual(stats.photosStored, 0)
    }

    /// FoundationNetworking can end the process when an upload read from a file is cancelled
    /// while it waits for the file's next chunk; Baton streams file bodies so that it cannot.
    /// Twenty cancellations at the first bytes sent, each a chance to hit that window.
    func test_cancellingFileUploadsMidTransfer_neverEndsTheProcess() async throws {
        let file = folder.appending(path: "body.bin")
        try Multipart.imageBytes(count: 4_000_000).write(to: file)
        for _ in 1...20 {
            let started = expectation(description: "bytes are on the wire")
            started.assertForOverFulfill = false
            let upload = client.send(Demo.echo(.post, body: .file(file, contentType: "application/octet-stream")))
            upload.progress { progress in if progress.completed > 0 { started.fulfill() } }
            await fulfillment(of: [started], timeout: 30)
            upload.cancel()
            XCTAssertEqual(upload.state, .cancelled)
        }
    }

    func test_aMissingFile_failsBeforeAnythingIsSent() async throws {
        var form = MultipartForm()
        form.append(fileAt: folder.appending(path: "gone.jpg"), name: "photo")

        let error = await apiError(upload(form, to: 1))

        XCTAssertEqual(error?.kind, .invalidRequest)
        XCTAssertTrue(error?.description.contains("gone.jpg") ?? false, error?.description ?? "")
        let count = try await requestCount("POST /reviews/:review_id/photos")
        XCTAssertEqual(count, 0)
    }
}

/// `Client.download(_:to:)` against DemoServer: bytes to a file in bounded memory, error answers,
/// cancellation.
final class DownloadIntegrationTests: IntegrationTestCase {
    private var folder: URL!

    override func setUp() async throws {
        try await super.setUp()
        folder = FileManager.default.temporaryDirectory.appending(path: "baton-download-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() async throws {
        try? FileManager.default.removeItem(at: folder)
        try await super.tearDown()
    }

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
        let client = makeClient { $0.maximumResponseSize = 1 << 20 }
        let reported = Locked<[PromiseProgress]>([])

        let file = try await client.download(bigBody(8 << 20), to: destination)
            .progress { progress in reported.withLock { $0.append(progress) } }
            .value

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

    func test_cancellingADownload_leavesNoFile() async throws {
        let before = try partialFiles()
        let destination = folder.appending(path: "large.json")
        let started = expectation(description: "bytes arrived")
        started.assertForOverFulfill = false

        let download = client.download(bigBody(64 << 20), to: destination)
        download.progress { progress in if progress.completed > 0 { started.fulfill() } }
        await fulfillment(of: [started], timeout: 30)
        download.cancel()
        _ = try? await download.value

        XCTAssertEqual(download.state, .cancelled)
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        // The transfer ends on the session's queue just after the cancel: wait for its cleanup.
        let deadline = ContinuousClock.now + .seconds(10)
        while try partialFiles() != before, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        XCTAssertEqual(try partialFiles(), before)
    }
}

/// The source documents' flow: post a review, then upload its photos a few at a time, each photo's
/// outcome reported, the failed ones sent again later.
final class ReviewPhotosIntegrationTests: IntegrationTestCase {
    /// A photo upload to review `reviewID`: `bytes` as `photo<index>.jpg`, with `fault` if given.
    private static func photo(_ bytes: Data, index: Int, to reviewID: Int, fault: String? = nil) -> Request<Photo> {
        var form = MultipartForm()
        form.append(bytes, name: "photo", filename: "photo\(index).jpg", contentType: "image/jpeg")
        return Request(.post, "reviews/\(reviewID)/photos", headers: fault.map { ["X-Demo-Fault": $0] } ?? [:], body: .multipart(form))
    }

    func test_aFailedPhoto_leavesTheReviewAndTheOthers_andSucceedsWhenSentAgain() async throws {
        let images = (0..<3).map { Multipart.imageBytes(count: 100_000 + $0) }
        let reported = Locked<[PromiseProgress]>([])

        let client = self.client!
        let outcomes = try await client.send(Reviews.post(facilityID: 1, content: "写真三枚", rating: 5))
            .success { review in
                client.sendEach(images.enumerated().map { index, bytes in
                    Self.photo(bytes, index: index, to: review.id, fault: index == 1 ? "status=500;times=1" : nil)
                })
            }
            .progress { progress in reported.withLock { $0.append(progress) } }
            .value

        XCTAssertEqual(outcomes.map { $0.value?.sha256 }, [Fixtures.sha256Hex(images[0]), nil, Fixtures.sha256Hex(images[2])])
        XCTAssertEqual((outcomes[1].error as? APIError)?.statusCode, 500)
        let stored = try await stats().photosStored
        XCTAssertEqual(stored, 2)
        let review = try await client.send(Reviews.get(id: 1)).value
        XCTAssertEqual(review.photos.count, 2)
        // One bar for the batch (after the review's own few bytes): bytes sent, the three bodies'
        // total known from its first report.
        let batch = reported.value.filter { ($0.total ?? 0) > 300_000 }
        XCTAssertEqual(Set(batch.compactMap(\.total)).count, 1, "\(reported.value)")
        XCTAssertTrue(batch.allSatisfy { $0.kind == .bytesSent }, "\(reported.value)")

        let again = try await client.sendEach(outcomes.filter { $0.error != nil }.map(\.endpoint)).value

        XCTAssertEqual(again.map { $0.value?.sha256 }, [Fixtures.sha256Hex(images[1])])
        let after = try await stats().photosStored
        XCTAssertEqual(after, 3)
    }

    func test_atMostThreeRunAtOnce() async throws {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "多い", rating: 4)).value
        let release = DispatchSemaphore(value: 0)
        // Each upload held in its adapter, so the batch's concurrency shows in how many started.
        let started = Counter()
        let held = makeClient { $0.adapters = [CountingHeldAdapter(started: started, release: release)] }
        let batch = held.sendEach((0..<7).map { Self.photo(Multipart.imageBytes(count: 1000), index: $0, to: review.id) })

        try await waitUntil { started.value == 3 }
        for _ in 0..<7 { release.signal() }
        let outcomes = try await batch.value

        XCTAssertEqual(outcomes.filter { $0.value != nil }.count, 7)
        XCTAssertEqual(started.value, 7)
    }

    func test_cancellingTheChainDuringUploads_stopsEveryTransfer_andStoresNoPhoto() async throws {
        let images = (0..<3).map { _ in Multipart.imageBytes(count: 8_000_000) }
        let sending = expectation(description: "bytes are on the wire")
        sending.assertForOverFulfill = false

        let client = self.client!
        let chain = client.send(Reviews.post(facilityID: 1, content: "取り消し", rating: 3))
            .success { review in
                client.sendEach(images.enumerated().map { Self.photo($1, index: $0, to: review.id) })
            }
        chain.progress { progress in if progress.kind == .bytesSent, progress.completed > 0 { sending.fulfill() } }
        await fulfillment(of: [sending], timeout: 30)
        chain.cancel()

        XCTAssertEqual(chain.state, .cancelled)
        let stored = try await stats().photosStored
        XCTAssertEqual(stored, 0)
        let review = try await client.send(Reviews.get(id: 1)).value
        XCTAssertEqual(review.photos, [])
    }

    /// Polls `condition` every 10 ms for at most 10 seconds (a hang guard).
    private func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while !condition() {
            guard ContinuousClock.now < deadline else { return XCTFail("the condition did not hold within 10 s") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}

/// Counts the attempts that reach it, then holds each until `release` is signalled.
struct CountingHeldAdapter: RequestAdapter {
    let started: Counter
    let release: DispatchSemaphore

    func adapt(_ request: URLRequest, context: AttemptContext) async throws -> URLRequest {
        _ = started.increment()
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                release.wait()
                continuation.resume()
            }
        }
        return request
    }
}
