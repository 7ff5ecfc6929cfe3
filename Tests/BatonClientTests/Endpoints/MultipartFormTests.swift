@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// MultipartForm's bytes (RFC 7578), its escaping and boundary, and the request bodies that carry
/// forms and files.
final class MultipartFormTests: TemporaryFolderTestCase {
    private func text(_ form: MultipartForm) throws -> String {
        String(decoding: try MultipartEncoder(form: form).data(), as: UTF8.self)
    }

    func test_parts_areLaidOutAsRFC7578Says() throws {
        var form = MultipartForm()
        form.append("良い", name: "caption")
        form.append(Data("JPEG".utf8), name: "photo", filename: "a.jpg", contentType: "image/jpeg")
        let b = form.boundary

        XCTAssertEqual(try text(form), """
            --\(b)\r\nContent-Disposition: form-data; name="caption"\r\n\r\n良い\r\n\
            --\(b)\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\nJPEG\r\n\
            --\(b)--\r\n
            """)
        XCTAssertEqual(form.contentType, "multipart/form-data; boundary=\(b)")
        XCTAssertEqual(try MultipartEncoder(form: form).size(), Int64(try MultipartEncoder(form: form).data().count))
    }

    func test_namesAndFilenames_escapeQuotesAndLineBreaks_andKeepUTF8() throws {
        var form = MultipartForm()
        form.append(Data([1]), name: "a\"b", filename: "写真 \"1\"\r\nContent-Type: text/html.jpg", contentType: "image/jpeg\r\nX: y")
        let text = try text(form)
        XCTAssertTrue(text.contains(#"name="a%22b"; filename="写真 %221%22%0D%0AContent-Type: text/html.jpg""#), text)
        XCTAssertTrue(text.contains("Content-Type: image/jpegX: y\r\n"), text)
        XCTAssertEqual(text.components(separatedBy: "\r\nContent-Type:").count, 2, "no header was forged: \(text)")
    }

    func test_theBoundary_isRandom_andNeverInAPartInMemory() {
        let first = MultipartForm().boundary
        XCTAssertNotEqual(first, MultipartForm().boundary)
        XCTAssertGreaterThanOrEqual(first.count, 32)

        var form = MultipartForm()
        let taken = form.boundary
        form.append("before --\(taken) after", name: "trap")
        XCTAssertNotEqual(form.boundary, taken)
        XCTAssertFalse(Data("before --\(taken) after".utf8).contains(boundary: form.boundary))
    }

    func test_description_namesThePartsAndTheirSizes_neverTheirContents() {
        var form = MultipartForm()
        form.append("hunter2", name: "password")
        form.append(Data(count: 3), name: "photo", filename: "a.jpg", contentType: "image/jpeg")
        form.append(fileAt: URL(fileURLWithPath: "/tmp/b.png"), name: "scan")
        XCTAssertEqual(form.description, #"MultipartForm(password: 7 bytes; photo: "a.jpg", image/jpeg, 3 bytes; scan: "b.png", image/png, file)"#)
    }

    func test_aFilePart_isReadWhenEncoded_withItsNameAndAGuessedType() throws {
        let file = folder.appending(path: "sunset.PNG")
        try Data("PNGDATA".utf8).write(to: file)
        var form = MultipartForm()
        form.append(fileAt: file, name: "photo")
        let text = try text(form)
        XCTAssertTrue(text.contains(#"name="photo"; filename="sunset.PNG"\#r\#nContent-Type: image/png\#r\#n\#r\#nPNGDATA\#r\#n"#), text)
    }

    func test_writingToAFile_givesTheSameBytesAsInMemory() throws {
        let file = folder.appending(path: "big.bin")
        try Data((0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: file)
        var form = MultipartForm()
        form.append("x", name: "caption")
        form.append(fileAt: file, name: "photo", contentType: "image/jpeg")
        let destination = folder.appending(path: "body")

        try MultipartEncoder(form: form).write(to: destination)

        XCTAssertEqual(try Data(contentsOf: destination), try MultipartEncoder(form: form).data())
    }

    // MARK: Through the client

    func test_aMissingFile_failsTheCallBeforeAnythingIsSent() async throws {
        let transport = constantStub(HTTPResponse(statusCode: 201))
        let client = try makeClient(transport: transport)
        var form = MultipartForm()
        form.append(fileAt: folder.appending(path: "gone.jpg"), name: "photo")

        for body in [RequestBody.multipart(form), .file(folder.appending(path: "gone.bin"), contentType: "image/jpeg"), .file(folder, contentType: "x/y")] {
            let error = await awaitError(client.send(Request<Void>(.post, "photos", body: body))) as? APIError
            XCTAssertEqual(error?.kind, .invalidRequest)
            XCTAssertEqual(error?.field, "body")
        }
        XCTAssertEqual(transport.requests.count, 0)
    }

    func test_aSmallForm_isSentFromMemory_aFileFromDisk() async throws {
        let bodies = Recorder<TransportBody?>()
        let transport = StubTransport { request, body in
            bodies.append(body)
            return HTTPResponse(statusCode: 204)
        }
        let client = try makeClient(transport: transport)
        var form = MultipartForm()
        form.append("x", name: "caption")
        let file = folder.appending(path: "photo.jpg")
        try Data("JPEG".utf8).write(to: file)

        try await client.send(Request<Void>(.post, "a", body: .multipart(form))).value
        try await client.send(Request<Void>(.post, "b", body: .file(file, contentType: "image/jpeg"))).value

        XCTAssertEqual(bodies.events.first??.data, try MultipartEncoder(form: form).data())
        XCTAssertEqual(bodies.events.last??.fileURL, file)
        XCTAssertEqual(transport.requests.map { $0.value(forHTTPHeaderField: "Content-Type") }, [form.contentType, "image/jpeg"])
    }

    func test_aFormOverTheThreshold_isSentFromATemporaryFile_removedOnceTheCallEnds() async throws {
        let seen = Recorder<(URL?, Bool)>()
        let transport = StubTransport { _, body in
            let url = body?.fileURL
            seen.append((url, url.map { FileManager.default.fileExists(atPath: $0.path) } ?? false))
            return HTTPResponse(statusCode: 204)
        }
        let client = try makeClient(transport: transport) { $0.multipartMemoryThreshold = 10 }
        var form = MultipartForm()
        form.append(String(repeating: "x", count: 100), name: "caption")

        try await client.send(Request<Void>(.post, "a", body: .multipart(form))).value

        let (url, existed) = try XCTUnwrap(seen.events.first)
        let spooled = try XCTUnwrap(url)
        XCTAssertTrue(existed, "the file existed while it was sent")
        XCTAssertFalse(FileManager.default.fileExists(atPath: spooled.path), "and is gone once the call ended")
    }
}
