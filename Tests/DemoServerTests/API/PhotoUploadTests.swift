import BatonOpenSSL
import XCTest
@testable import DemoServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `POST /reviews/:review_id/photos` (multipart/form-data) and `GET /photos/:id`, through URLSession.
final class PhotoUploadTests: ServerTestCase {
    private var token = ""

    override func makeConfiguration() -> DemoServer.Configuration {
        var configuration = super.makeConfiguration()
        configuration.maxBodyBytes = 20 << 20
        return configuration
    }

    override func setUp() async throws {
        try await super.setUp()
        token = try await login().token
        let review = try await postJSON("/facilities/1/reviews", ["content": "photos", "rating": 5], token: token)
        XCTAssertEqual(review.status, 201)
    }

    private func upload(_ body: MultipartBody, to reviewID: Int = 1) async throws -> Reply {
        try await send("POST", "/reviews/\(reviewID)/photos", headers: ["Content-Type": body.contentType],
                       body: body.closed, token: token)
    }

    func test_jpegUpload_reportsByteCountAndSHA256AndIsServedBack() async throws {
        let image = testBytes(count: 100_000, seed: 11)
        var body = MultipartBody()
        body.addText(name: "caption", "東京タワーの夜景")
        body.addFile(filename: "night.jpg", contentType: "image/jpeg", data: image)
        let reply = try await upload(body)
        XCTAssertEqual(reply.status, 201)
        XCTAssertEqual(reply.text, #"{"id":1,"review_id":1,"url":"/photos/1","filename":"night.jpg","bytes":100000,"sha256":"\#(SHA256.hexDigest(of: image))"}"#)
        XCTAssertEqual(reply.headers["location"], "/photos/1")

        let photo = try await send("GET", "/photos/1", token: token)
        XCTAssertEqual(photo.status, 200)
        XCTAssertEqual(photo.headers["content-type"], "image/jpeg")
        XCTAssertEqual(Array(photo.body), image)
        let review = try await send("GET", "/reviews/1", token: token)
        XCTAssertEqual(review.object["photos"] as? [String], ["/photos/1"])
        let stats = try await stats()
        XCTAssertEqual(stats["photos_stored"] as? Int, 1)
    }

    func test_pngUploadsInOrder_areListedOnTheReviewInUploadOrder() async throws {
        for seed in 1...2 {
            var body = MultipartBody()
            body.addFile(filename: "p\(seed).png", contentType: "image/png", data: testBytes(count: 500, seed: UInt64(seed)))
            let reply = try await upload(body)
            XCTAssertEqual(reply.status, 201)
        }
        let review = try await send("GET", "/reviews/1", token: token)
        XCTAssertEqual(review.object["photos"] as? [String], ["/photos/1", "/photos/2"])
        let photo = try await send("GET", "/photos/2", token: token)
        XCTAssertEqual(photo.headers["content-type"], "image/png")
    }

    func test_quotedEscapedAndExtendedFilenames_areAccepted() async throws {
        var body = MultipartBody(boundary: "quoted boundary:with=odd chars")
        body.addPart(disposition: #"form-data; name="photo"; filename="say \"cheese\"; ok.jpg"; filename*=UTF-8''%E5%86%99.jpg"#,
                     contentType: "image/jpeg; name=x", data: [0xff, 0xd8, 0xff])
        let reply = try await send("POST", "/reviews/1/photos",
                                   headers: ["Content-Type": "multipart/form-data; boundary=\"\(body.boundary)\""],
                                   body: body.closed, token: token)
        XCTAssertEqual(reply.status, 201, reply.text)
        XCTAssertEqual(reply.object["bytes"] as? Int, 3)
        XCTAssertEqual(reply.object["filename"] as? String, "写.jpg")
    }

    func test_percentEscapedQuotesAndLineBreaksInAFilename_areReportedDecoded_andNothingElseIs() async throws {
        var body = MultipartBody()
        body.addFile(filename: "a%22b%0D%0ac 100% %41.jpg", data: [0xff, 0xd8, 0xff])
        let reply = try await upload(body)
        XCTAssertEqual(reply.status, 201, reply.text)
        XCTAssertEqual(reply.object["filename"] as? String, "a\"b\r\nc 100% %41.jpg")
    }

    func test_fileBytesContainingTheBoundaryAsAPrefix_arriveIntact() async throws {
        var body = MultipartBody()
        let tricky = Array("\r\n--\(body.boundary)X not the end\r\n--\(body.boundary)-".utf8) + testBytes(count: 1000)
        body.addFile(data: tricky)
        let reply = try await upload(body)
        XCTAssertEqual(reply.status, 201)
        XCTAssertEqual(reply.object["bytes"] as? Int, tricky.count)
        XCTAssertEqual(reply.object["sha256"] as? String, SHA256.hexDigest(of: tricky))
    }

    func test_uploadLargerThanTheSpillThreshold_goesThroughATemporaryFileIntact() async throws {
        let image = testBytes(count: 12 << 20, seed: 5)
        var body = MultipartBody()
        body.addFile(data: image)
        let spilledBefore = IncomingBody.spilledBodies.value
        let reply = try await upload(body)
        XCTAssertEqual(reply.status, 201)
        XCTAssertEqual(reply.object["bytes"] as? Int, image.count)
        XCTAssertEqual(reply.object["sha256"] as? String, SHA256.hexDigest(of: image))
        XCTAssertEqual(IncomingBody.spilledBodies.value - spilledBefore, 1)
    }

    func test_uploadOverTheBodyLimit_answers413() async throws {
        var body = MultipartBody()
        body.addFile(data: testBytes(count: 21 << 20))
        let reply = try await upload(body)
        XCTAssertEqual(reply.status, 413)
    }

    func test_invalidUploads_answer422WithWhatIsWrong() async throws {
        var noPhoto = MultipartBody()
        noPhoto.addText(name: "caption", "only text")
        var twoPhotos = MultipartBody()
        twoPhotos.addFile(data: [1])
        twoPhotos.addFile(data: [2])
        var noFilename = MultipartBody()
        noFilename.addPart(disposition: "form-data; name=\"photo\"", contentType: "image/jpeg", data: [1])
        var wrongType = MultipartBody()
        wrongType.addFile(contentType: "image/gif", data: [1])
        var noType = MultipartBody()
        noType.addPart(disposition: "form-data; name=\"photo\"; filename=\"a.jpg\"", data: [1])
        let cases: [(MultipartBody, String)] = [
            (noPhoto, "no photo part"),
            (twoPhotos, "a second photo part"),
            (noFilename, "photo part has no filename"),
            (wrongType, "photo must be image/jpeg or image/png, not image/gif"),
            (noType, "photo must be image/jpeg or image/png, not text/plain"),
        ]
        for (body, message) in cases {
            let reply = try await upload(body)
            XCTAssertEqual(reply.status, 422, message)
            XCTAssertEqual(reply.message, message)
        }
        let stats = try await stats()
        XCTAssertEqual(stats["photos_stored"] as? Int, 0)
    }

    func test_multipartWithoutClosingBoundary_answers422() async throws {
        var body = MultipartBody()
        body.addFile(data: [1, 2, 3])
        let reply = try await send("POST", "/reviews/1/photos", headers: ["Content-Type": body.contentType],
                                   body: Data(body.bytes), token: token)
        XCTAssertEqual(reply.status, 422)
        XCTAssertEqual(reply.message, "multipart body has no closing boundary")
    }

    func test_multipartWithoutBoundaryParameter_answers422() async throws {
        let reply = try await send("POST", "/reviews/1/photos", headers: ["Content-Type": "multipart/form-data"],
                                   body: Data("x".utf8), token: token)
        XCTAssertEqual(reply.status, 422)
    }

    func test_photoAsJSONBody_answers415() async throws {
        let reply = try await postJSON("/reviews/1/photos", ["photo": "base64"], token: token)
        XCTAssertEqual(reply.status, 415)
    }

    func test_photoForUnknownReview_answers404() async throws {
        var body = MultipartBody()
        body.addFile(data: [1])
        let reply = try await upload(body, to: 42)
        XCTAssertEqual(reply.status, 404)
        let missing = try await send("GET", "/photos/1", token: token)
        XCTAssertEqual(missing.status, 404)
    }
}
