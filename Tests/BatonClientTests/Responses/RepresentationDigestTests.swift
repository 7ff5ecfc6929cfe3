@testable import BatonClient
import Foundation
import TestSupport
import XCTest

/// `RepresentationDigest`: the SHA-256 a response names for its whole representation, from
/// `Repr-Digest` (RFC 9530), the older `Digest` (RFC 3230), or `Content-Digest` for a whole
/// `200` without a content coding.
final class RepresentationDigestTests: XCTestCase {

    /// SHA-256 of "hello".
    private let hello: [UInt8] = [
        0x2c, 0xf2, 0x4d, 0xba, 0x5f, 0xb0, 0xa3, 0x0e, 0x26, 0xe8, 0x3b, 0x2a, 0xc5, 0xb9, 0xe2, 0x9e,
        0x1b, 0x16, 0x1e, 0x5c, 0x1f, 0xa7, 0x42, 0x5e, 0x73, 0x04, 0x33, 0x62, 0x93, 0x8b, 0x98, 0x24,
    ]
    private let helloBase64 = "LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ="
    /// SHA-256 of "world", another digest.
    private let worldBase64 = "SG6kYiTRu0+2gPNPfJrZao8k7Ii+c+qOWmxlJg6cuKc="

    private func digest(_ headers: [String: String], status: Int = 200) -> [UInt8]? {
        RepresentationDigest.sha256(in: { name in headers.first { $0.key.lowercased() == name.lowercased() }?.value }, status: status)
    }

    func test_theFixture_isTheDigestOfHello() throws {
        XCTAssertEqual(Data(base64Encoded: helloBase64).map(Array.init), hello)
        XCTAssertEqual(RepresentationDigest.text(hello), helloBase64)
    }

    // MARK: Repr-Digest

    func test_reprDigest_sha256_isRead() {
        XCTAssertEqual(digest(["Repr-Digest": "sha-256=:\(helloBase64):"]), hello)
    }

    func test_reprDigest_isReadForAnyStatus() {
        XCTAssertEqual(digest(["Repr-Digest": "sha-256=:\(helloBase64):"], status: 206), hello)
        XCTAssertEqual(digest(["Repr-Digest": "sha-256=:\(helloBase64):", "Content-Encoding": "gzip"]), hello)
    }

    func test_reprDigest_amongOtherAlgorithms_isFound() {
        let field = "sha-512=:m3HSJL1i83hdltRq0+o9czGb+8KJDKra4t/3JRlnPKcjI8PZm6XBHXx6zG4UuMXaDEZjR1wuXDre9G9zvN7AQw==:, sha-256=:\(helloBase64):"
        XCTAssertEqual(digest(["Repr-Digest": field]), hello)
        XCTAssertEqual(digest(["Repr-Digest": "  sha-256 = :\(helloBase64):  "]), hello, "whitespace around members")
    }

    func test_reprDigest_withoutSHA256_namesNone() {
        XCTAssertNil(digest(["Repr-Digest": "sha-512=:m3HSJL1i83hdltRq0+o9czGb+8KJDKra4t/3JRlnPKcjI8PZm6XBHXx6zG4UuMXaDEZjR1wuXDre9G9zvN7AQw==:"]))
    }

    func test_reprDigest_ofTheWrongLength_isNil() {
        let short = Data(repeating: 1, count: 31).base64EncodedString()
        let long = Data(repeating: 1, count: 33).base64EncodedString()
        XCTAssertNil(digest(["Repr-Digest": "sha-256=:\(short):"]))
        XCTAssertNil(digest(["Repr-Digest": "sha-256=:\(long):"]))
        XCTAssertNil(digest(["Repr-Digest": "sha-256=::"]))
    }

    func test_reprDigest_notAByteSequence_orNotBase64_isNil() {
        XCTAssertNil(digest(["Repr-Digest": "sha-256=\(helloBase64)"]), "no colons")
        XCTAssertNil(digest(["Repr-Digest": "sha-256=:\(helloBase64)"]), "no closing colon")
        XCTAssertNil(digest(["Repr-Digest": "sha-256=:not base64!:"]))
    }

    // MARK: Digest

    func test_legacyDigest_isRead_withoutRegardToTheAlgorithmsCase() {
        XCTAssertEqual(digest(["Digest": "SHA-256=\(helloBase64)"]), hello)
        XCTAssertEqual(digest(["Digest": "sha-256=\(helloBase64)"]), hello)
        XCTAssertEqual(digest(["Digest": "MD5=XUFAKrxLKna5cZ2REBfFkg==, SHA-256=\(helloBase64)"]), hello)
    }

    func test_legacyDigest_ofTheWrongLength_isNil() {
        XCTAssertNil(digest(["Digest": "SHA-256=\(Data(repeating: 1, count: 20).base64EncodedString())"]))
        XCTAssertNil(digest(["Digest": "MD5=XUFAKrxLKna5cZ2REBfFkg=="]))
    }

    func test_reprDigest_winsOverTheLegacyField() {
        XCTAssertEqual(digest(["Repr-Digest": "sha-256=:\(helloBase64):", "Digest": "SHA-256=\(worldBase64)"]), hello)
    }

    // MARK: Content-Digest

    func test_contentDigest_isRead_forAWhole200WithoutCoding() {
        XCTAssertEqual(digest(["Content-Digest": "sha-256=:\(helloBase64):"]), hello)
    }

    func test_contentDigest_isIgnored_forA206_orACodedBody() {
        XCTAssertNil(digest(["Content-Digest": "sha-256=:\(helloBase64):"], status: 206))
        XCTAssertNil(digest(["Content-Digest": "sha-256=:\(helloBase64):", "Content-Encoding": "gzip"]))
        XCTAssertNil(digest(["Content-Digest": "sha-256=:\(helloBase64):"], status: 203))
    }

    func test_reprDigest_winsOverContentDigest() {
        XCTAssertEqual(digest(["Repr-Digest": "sha-256=:\(helloBase64):", "Content-Digest": "sha-256=:\(worldBase64):"]), hello)
    }

    func test_noField_namesNone() {
        XCTAssertNil(digest([:]))
        XCTAssertNil(digest(["Content-MD5": "XUFAKrxLKna5cZ2REBfFkg=="]))
    }
}
