@testable import BatonWire
import XCTest

/// `ContentCoding`: what becomes of a body, given its `Content-Encoding` and the request's own
/// `Accept-Encoding` (`nil`: the transport asked for gzip and deflate).
final class ContentCodingTests: XCTestCase {
    private func coding(_ fields: [String], asked: String? = nil) -> ContentCoding {
        ContentCoding(contentEncoding: fields, asked: asked)
    }

    func test_noCoding_orIdentity_isKeptAsItCame() {
        XCTAssertEqual(coding([]), .asItCame)
        XCTAssertEqual(coding(["identity"]), .asItCame)
        XCTAssertEqual(coding(["Identity, "]), .asItCame)
    }

    func test_gzipAndDeflate_areUndone_whateverTheirCase() {
        XCTAssertEqual(coding(["gzip"]), .inflate(.gzip))
        XCTAssertEqual(coding(["X-GZIP"]), .inflate(.gzip))
        XCTAssertEqual(coding([" Deflate "]), .inflate(.deflate))
        XCTAssertEqual(coding(["identity", "gzip"]), .inflate(.gzip))
    }

    func test_aCodingNotAskedFor_isRefused_namingIt() {
        XCTAssertEqual(coding(["br"]), .refused("the server sent a body coded as br, which Baton did not ask for and cannot decode"))
        XCTAssertEqual(coding(["zstd"], asked: "gzip, br"), .refused("the server sent a body coded as zstd, which Baton did not ask for and cannot decode"))
        XCTAssertEqual(coding(["gzip, br"]), .refused("the server sent a body coded as gzip, br, which Baton did not ask for and cannot decode"))
    }

    func test_aCodingTheRequestRefusedWithQZero_isRefused() {
        XCTAssertEqual(coding(["br"], asked: "br;q=0, gzip"), .refused("the server sent a body coded as br, which Baton did not ask for and cannot decode"))
    }

    func test_twoCodingsBatonUndoesOneOverTheOther_areRefused_sayingBatonUndoesOne() {
        XCTAssertEqual(coding(["gzip", "gzip"]), .refused("the server sent a body coded as gzip, gzip, which Baton cannot decode (it undoes one gzip or deflate coding)"))
    }

    func test_codingsTheRequestItselfAskedFor_areKeptAsTheyCame_forTheCallerToDecode() {
        XCTAssertEqual(coding(["br"], asked: "BR;q=0.5"), .asItCame)
        XCTAssertEqual(coding(["zstd"], asked: "*"), .asItCame)
        XCTAssertEqual(coding(["gzip", "br"], asked: "gzip, br"), .asItCame)
    }
}
