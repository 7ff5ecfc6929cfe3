@testable import BatonSupport
@testable import BatonPromise
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `MultipartForm` and file bodies against DemoServer's photo upload: what arrives, bodies
/// streamed from disk, temporary files, cancellation.
final class UploadIntegrationTests: FolderTestCase {
    /// A photo's upload to review `reviewID` as a `MultipartForm`, with `headers`.
    private func upload(
        _ form: MultipartForm, to reviewID: Int, through client: Client? = nil, headers: [String: String] = [:]
    ) -> Promise<Photo> {
        (client ?? self.client).send(Request<Photo>(.post, "reviews/\(reviewID)/photos", headers: headers, body: .multipart(form)))
    }

    /// The server holds the response this long (the longest delay there is) unless the client hangs
    /// up: a cancel, however late a busy machine makes it, always lands before the response.
    private static let heldResponse = ["X-Demo-Fault": "delay=300s"]

    /// A client of `server` that records the files its transport is given to send: a spooled
    /// form's temporary file, for a test to check it is gone. (Listing the temporary folder would
    /// also see files of other calls, such as a cancelled one whose writing is still finishing.)
    /// A client noting the file of each file body it sends; its calls wait for `release`, if
    /// given, before they are sent.
    private func recordingFileBodies(heldUntil release: DispatchSemaphore? = nil) throws -> (Client, Locked<[URL]>) {
        let files = Locked<[URL]>([])
        var configuration = client.configuration
        if let release { configuration.adapters.append(HeldAdapter(release: release)) }
        return (try Client(configuration: configuration, transport: FileBodyRecorder(inner: client.transport, files: files)), files)
    }

    /// Hands every request to `inner`, noting the file of each file body first.
    private struct FileBodyRecorder: Transport {
        let inner: any Transport
        let files: Locked<[URL]>

        func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
            if let file = body?.fileURL { files.withLock { $0.append(file) } }
            return inner.send(request, body: body, options: options)
        }
    }

    func test_threePhotosInParallel_arriveByteForByte() async throws {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "三枚", rating: 4)).value
        let images = (1...3).map { Multipart.imageBytes(count: 200_000 * $0) }
        // Held until `all` follows them: an upload finished before it would count with no size.
        let release = DispatchSemaphore(value: 0)
        let held = try makeClient { $0.adapters = [HeldAdapter(release: release)] }
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
        // Held until the handler is added, so that it sees the reports from the first.
        let release = DispatchSemaphore(value: 0)
        let (recording, files) = try recordingFileBodies(heldUntil: release)

        let call = upload(form, to: review.id, through: recording).progress { progress in reported.withLock { $0.append(progress) } }
        release.signal()
        let photo = try await call.value

        XCTAssertEqual(photo.sha256, Fixtures.sha256Hex(bytes))
        // The body: the file and the part's few header bytes.
        let sending = reported.value.filter { ($0.total ?? 0) > Int64(bytes.count) }
        XCTAssertGreaterThan(sending.count, 1)
        XCTAssertLessThan(sending.last?.total ?? 0, Int64(bytes.count) + 1000)
        XCTAssertTrue(zip(sending, sending.dropFirst()).allSatisfy { $0.completed <= $1.completed }, "\(sending)")
        XCTAssertEqual(sending.last?.completed, sending.last?.total)
        XCTAssertEqual(files.value.count, 1, "the form went as one temporary file")
        for spooled in files.value {
            XCTAssertTrue(spooled.lastPathComponent.hasPrefix("baton-upload-"), "\(spooled)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: spooled.path), "\(spooled) is left behind")
        }
    }

    func test_cancellingALargeUpload_removesTheTemporaryFile_andStoresNoPhoto() async throws {
        let file = folder.appending(path: "large.jpg")
        try Multipart.imageBytes(count: 20_000_000).write(to: file)
        let review = try await client.send(Reviews.post(facilityID: 1, content: "cancelled", rating: 5)).value
        var form = MultipartForm()
        form.append(fileAt: file, name: "photo")
        let started = expectation(description: "bytes are on the wire")
        started.assertForOverFulfill = false
        // Its head went out before its first body byte, so the server logs the request: cut short
        // ("incomplete"), or held and hung up on ("abandoned"), or answered if it was stored.
        let over = serverLog.expectLine(containing: #""POST /reviews/\#(review.id)/photos HTTP/1.1""#)
        let (recording, files) = try recordingFileBodies()

        let upload = upload(form, to: review.id, through: recording, headers: Self.heldResponse)
        upload.progress { progress in if progress.completed > 0 { started.fulfill() } }
        await fulfillment(of: [started], timeout: 30)
        upload.cancel()
        _ = try? await upload.value

        XCTAssertEqual(upload.state, .cancelled)
        // The call removes its temporary file as it settles, before this test's await resumes.
        XCTAssertEqual(files.value.count, 1)
        XCTAssertFalse(files.value.contains { FileManager.default.fileExists(atPath: $0.path) }, "\(files.value) left behind")
        // The moment the photo would have been stored is past once the server is done with it.
        await fulfillment(of: [over], timeout: 30)
        let stats = try await stats()
        XCTAssertEqual(stats.photosStored, 0, "\(serverLog.all)")
    }

    /// FoundationNetworking can end the process when an upload read from a file is cancelled
    /// while it waits for the file's next chunk; Baton streams file bodies so that it cannot.
    /// Twenty cancellations at the first bytes sent, each a chance to hit that window: the body
    /// is large enough to take a while on loopback, and the response is held, so no upload can
    /// finish before its cancel.
    func test_cancellingFileUploadsMidTransfer_neverEndsTheProcess() async throws {
        let file = folder.appending(path: "body.bin")
        // 32 MB: eight copies of a 4 MB block (the bytes do not matter, only their number).
        try Data(repeating: 0, count: 0).write(to: file)
        let block = Multipart.imageBytes(count: 4_000_000)
        let handle = try FileHandle(forWritingTo: file)
        for _ in 0..<8 { try handle.write(contentsOf: block) }
        try handle.close()
        for _ in 1...20 {
            let started = expectation(description: "bytes are on the wire")
            started.assertForOverFulfill = false
            let upload = client.send(Demo.echo(.post, headers: Self.heldResponse, body: .file(file, contentType: "application/octet-stream")))
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
