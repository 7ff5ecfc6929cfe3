import BatonOpenSSL
import XCTest
@testable import DemoServer

/// The FIPS 180-4 / NIST example vectors, plus the incremental interface.
final class SHA256Tests: XCTestCase {
    func test_emptyInput_matchesFIPSVector() {
        XCTAssertEqual(SHA256.hexDigest(of: []), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    func test_abc_matchesFIPSVector() {
        XCTAssertEqual(SHA256.hexDigest(of: Array("abc".utf8)),
                       "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    func test_448BitMessage_matchesFIPSVector() {
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        XCTAssertEqual(SHA256.hexDigest(of: message),
                       "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    func test_896BitMessage_matchesFIPSVector() {
        let message = Array(("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnop"
            + "jklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8)
        XCTAssertEqual(SHA256.hexDigest(of: message),
                       "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    func test_oneMillionA_matchesFIPSVector() {
        var hasher = SHA256()
        let thousand = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(thousand) }
        XCTAssertEqual(hasher.finalizeHex(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    func test_paddingBoundaryLengths_matchKnownDigests() {
        // 55, 56 and 64 bytes put the length field in the same block, the next block, and after a full block.
        XCTAssertEqual(SHA256.hexDigest(of: [UInt8](repeating: 0x61, count: 55)),
                       "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        XCTAssertEqual(SHA256.hexDigest(of: [UInt8](repeating: 0x61, count: 56)),
                       "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        XCTAssertEqual(SHA256.hexDigest(of: [UInt8](repeating: 0x61, count: 64)),
                       "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    func test_updateInUnevenPieces_equalsOneShotDigest() {
        let bytes = testBytes(count: 10_000, seed: 7)
        let expected = SHA256.hexDigest(of: bytes)
        for pieceSize in [1, 3, 63, 64, 65, 1000] {
            var hasher = SHA256()
            var offset = 0
            while offset < bytes.count {
                let end = min(bytes.count, offset + pieceSize)
                hasher.update(bytes[offset..<end])
                offset = end
            }
            XCTAssertEqual(hasher.finalizeHex(), expected, "pieces of \(pieceSize)")
        }
    }
}
