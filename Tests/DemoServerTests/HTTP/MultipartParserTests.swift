import XCTest
@testable import DemoServer

/// The multipart/form-data parser and the header parameters it relies on (RFC 7578, RFC 2046).
final class MultipartParserTests: XCTestCase {
    struct Part: Equatable {
        var headers: [String]
        var data: [UInt8]
    }

    /// Parses `body` fed in pieces of `pieceSize` bytes.
    private func parts(_ body: [UInt8], boundary: String = "b0undary", pieceSize: Int = .max) throws -> [Part] {
        var parser = try XCTUnwrap(MultipartParser(boundary: boundary))
        var result: [Part] = []
        var offset = 0
        repeat {
            let end = pieceSize >= body.count - offset ? body.count : offset + pieceSize
            parser.append(body[offset..<end])
            offset = end
            while let event = try parser.next() {
                switch event {
                case .partStart(let headers): result.append(Part(headers: headers.fields.map { "\($0.name): \($0.value)" }, data: []))
                case .partData(let bytes): result[result.count - 1].data += bytes
                case .partEnd: break
                }
            }
        } while offset < body.count
        try parser.finish()
        return result
    }

    func test_twoParts_yieldHeadersAndDataInOrder() throws {
        let body = "preamble\r\n--b0undary\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nhello\r\n"
            + "--b0undary\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n"
            + "\u{1}\u{2}\r\n--b0undary--\r\nepilogue"
        let expected = [
            Part(headers: ["Content-Disposition: form-data; name=\"caption\""], data: Array("hello".utf8)),
            Part(headers: ["Content-Disposition: form-data; name=\"photo\"; filename=\"a.png\"", "Content-Type: image/png"],
                 data: [1, 2]),
        ]
        for pieceSize in [1, 2, 5, 13, Int.max] {
            XCTAssertEqual(try parts(Array(body.utf8), pieceSize: pieceSize), expected, "pieces of \(pieceSize)")
        }
    }

    func test_boundaryInsideDataAsAPrefixOnly_staysData() throws {
        // "\r\n--b0undaryX" and "\r\n--b0undary-x" start like a delimiter but are not one.
        let data = Array("line\r\n--b0undaryX tail\r\n--b0undary-x\r\n--b0undar".utf8)
        let body = Array("--b0undary\r\nContent-Disposition: form-data; name=\"photo\"\r\n\r\n".utf8) + data
            + Array("\r\n--b0undary--".utf8)
        for pieceSize in [1, 3, Int.max] {
            XCTAssertEqual(try parts(body, pieceSize: pieceSize).first?.data, data, "pieces of \(pieceSize)")
        }
    }

    func test_randomBinaryData_survivesRoundTrip() throws {
        let data = testBytes(count: 300_000, seed: 3)
        var builder = MultipartBody()
        builder.addFile(data: data)
        let parsed = try parts(Array(builder.closed), boundary: builder.boundary, pieceSize: 65_536)
        XCTAssertEqual(parsed.count, 1)
        XCTAssertEqual(parsed.first?.data, data)
    }

    func test_transportPaddingAfterBoundary_isAllowed() throws {
        let body = "--b0undary  \r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx\r\n--b0undary--"
        XCTAssertEqual(try parts(Array(body.utf8)).first?.data, Array("x".utf8))
    }

    func test_missingClosingBoundary_failsAtFinish() {
        let body = Array("--b0undary\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nnever closed".utf8)
        XCTAssertThrowsError(try parts(body)) {
            XCTAssertEqual($0 as? MultipartParser.Failure, MultipartParser.Failure(message: "multipart body has no closing boundary"))
        }
    }

    func test_partHeaderWithoutColon_fails() {
        let body = Array("--b0undary\r\nnot a header\r\n\r\nx\r\n--b0undary--".utf8)
        XCTAssertThrowsError(try parts(body))
    }

    func test_boundaryLongerThan70Characters_isRefused() {
        XCTAssertNil(MultipartParser(boundary: String(repeating: "b", count: 71)))
        XCTAssertNil(MultipartParser(boundary: ""))
    }

    func test_contentDisposition_quotedAndEscapedParameters() throws {
        let parsed = try XCTUnwrap(HeaderParameters.parse(#"form-data; name="photo"; filename="a \"quoted\"; name.jpg""#))
        XCTAssertEqual(parsed.value, "form-data")
        XCTAssertEqual(parsed["name"], "photo")
        XCTAssertEqual(parsed["filename"], #"a "quoted"; name.jpg"#)
    }

    func test_extendedFilename_isDecodedAndWinsOverPlainFilename() throws {
        let parsed = try XCTUnwrap(HeaderParameters.parse("form-data; name=photo; filename=\"fallback.jpg\"; filename*=UTF-8''%E5%86%99%E7%9C%9F.jpg"))
        XCTAssertEqual(parsed["filename"], "写真.jpg")
        XCTAssertEqual(parsed["name"], "photo")
    }

    func test_contentTypeBoundary_quotedOrNot() throws {
        XCTAssertEqual(HeaderParameters.parse("multipart/form-data; boundary=abc")?["boundary"], "abc")
        XCTAssertEqual(HeaderParameters.parse("Multipart/Form-Data; BOUNDARY=\"a b:c\"")?["boundary"], "a b:c")
        XCTAssertEqual(HeaderParameters.parse("Multipart/Form-Data; boundary=x")?.value, "multipart/form-data")
    }

    func test_malformedParameters_areRefused() {
        XCTAssertNil(HeaderParameters.parse("form-data; name=\"unterminated"))
        XCTAssertNil(HeaderParameters.parse("form-data; name"))
        XCTAssertNil(HeaderParameters.parse("form-data; name=\"a\" trailing"))
        XCTAssertNil(HeaderParameters.parse("; name=a"))
    }
}
