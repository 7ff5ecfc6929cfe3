import BatonOpenSSL
import BatonSupport
import XCTest
@testable import DemoServer

/// Request bodies in memory and, past the threshold, in an unlinked temporary file.
final class RequestBodyTests: XCTestCase {
    func test_smallBody_staysInMemory() {
        let body = IncomingBody(spillThreshold: 1024)
        XCTAssertNoThrow(try body.append(Array("hello".utf8)[...]))
        XCTAssertFalse(body.isSpilled)
        XCTAssertEqual(body.bytes(limit: 1024), Array("hello".utf8))
    }

    func test_bodyPastTheThreshold_spillsToAFileAndReadsBackInPieces() throws {
        let bytes = testBytes(count: 3 << 20, seed: 4)
        let body = IncomingBody(spillThreshold: 1 << 20)
        let descriptors = Posix.openDescriptors.value
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + 100_000)
            try body.append(bytes[offset..<end])
            offset = end
        }
        XCTAssertTrue(body.isSpilled)
        XCTAssertEqual(body.count, bytes.count)
        XCTAssertEqual(Posix.openDescriptors.value, descriptors + 1)
        var pieces: [Int] = []
        var hasher = SHA256()
        body.forEachPiece { piece in
            pieces.append(piece.count)
            hasher.update(piece)
        }
        XCTAssertEqual(pieces, [1 << 20, 1 << 20, 1 << 20])
        XCTAssertEqual(hasher.finalizeHex(), SHA256.hexDigest(of: bytes))
        XCTAssertNil(body.bytes(limit: 1 << 20))
        XCTAssertEqual(body.bytes(limit: 4 << 20), bytes)
        body.close()
        XCTAssertEqual(Posix.openDescriptors.value, descriptors)
        XCTAssertEqual(body.count, 0)
    }
}
