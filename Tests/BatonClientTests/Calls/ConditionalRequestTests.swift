@testable import BatonClient
import XCTest

/// How a conditional `GET` carries a validator, as the client's store and the image loader both
/// send it.
final class ConditionalRequestTests: XCTestCase {
    private func fields(etag: String?, lastModified: String?) -> [String] {
        ConditionalRequest.fields(etag: etag, lastModified: lastModified).map { "\($0.name): \($0.value)" }
    }

    func test_aValidator_goesBackInTheFieldThatComparesWithIt_asTheServerSentIt() {
        let date = "Sun, 06 Nov 1994 08:49:37 GMT"
        XCTAssertEqual(fields(etag: "W/\"v1\"", lastModified: nil), ["If-None-Match: W/\"v1\""])
        XCTAssertEqual(fields(etag: nil, lastModified: date), ["If-Modified-Since: \(date)"])
        XCTAssertEqual(fields(etag: "\"v1\"", lastModified: date), ["If-None-Match: \"v1\"", "If-Modified-Since: \(date)"])
        XCTAssertEqual(fields(etag: nil, lastModified: nil), [])
        XCTAssertEqual(ConditionalRequest.fieldNames, ["If-None-Match", "If-Modified-Since"])
    }
}
