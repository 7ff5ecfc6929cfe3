@testable import BatonWire
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// The bytes of a SOCKS5 `CONNECT` (RFC 1928 §4) and how its reply is read (§6), a piece at a
/// time, never past its end.
final class SOCKS5HandshakeTests: XCTestCase {
    func test_theConnectRequest_carriesANameOrAnAddress_andThePort() throws {
        XCTAssertEqual(SOCKS5Handshake.connectRequest(to: .name("ab.c"), port: 443), [5, 1, 0, 3, 4, 97, 98, 46, 99, 1, 187])
        let four = try XCTUnwrap(ResolvedAddress(numeric: "10.1.2.3", port: 80))
        XCTAssertEqual(SOCKS5Handshake.connectRequest(to: .address(four), port: 8080), [5, 1, 0, 1, 10, 1, 2, 3, 0x1F, 0x90])
        let six = try XCTUnwrap(ResolvedAddress(numeric: "::1", port: 80))
        XCTAssertEqual(SOCKS5Handshake.connectRequest(to: .address(six), port: 1), [5, 1, 0, 4] + [UInt8](repeating: 0, count: 15) + [1, 0, 1])
    }

    func test_aReply_isReadToItsExactLength() throws {
        XCTAssertEqual(try SOCKS5Reply.read([], proxy: "p:1"), .needs(total: 4))
        XCTAssertEqual(try SOCKS5Reply.read([5, 0, 0, 1], proxy: "p:1"), .needs(total: 10))
        XCTAssertEqual(try SOCKS5Reply.read([5, 0, 0, 4], proxy: "p:1"), .needs(total: 22))
        XCTAssertEqual(try SOCKS5Reply.read([5, 0, 0, 3], proxy: "p:1"), .needs(total: 5))
        XCTAssertEqual(try SOCKS5Reply.read([5, 0, 0, 3, 3], proxy: "p:1"), .needs(total: 10))
        XCTAssertEqual(try SOCKS5Reply.read([5, 0, 0, 1, 127, 0, 0, 1, 0, 80], proxy: "p:1"), .succeeded)
        // Found by the fuzz target: a bound name may be empty, the shortest reply (7 bytes).
        XCTAssertEqual(try SOCKS5Reply.read([5, 0, 0, 3, 0], proxy: "p:1"), .needs(total: 7))
        XCTAssertEqual(try SOCKS5Reply.read([5, 0, 0, 3, 0, 1, 187], proxy: "p:1"), .succeeded)
        XCTAssertEqual(try SOCKS5Reply.read([5, 5, 0, 1, 0, 0, 0, 0, 0, 0], proxy: "p:1"), .failed(reason: "connection refused"))
        XCTAssertEqual(try SOCKS5Reply.read([5, 99, 0, 1, 0, 0, 0, 0, 0, 0], proxy: "p:1"), .failed(reason: "reply code 99"))
    }

    func test_aReplyThatIsNotSOCKS5_isRefused_namingTheProxy() {
        for bytes: [UInt8] in [[4, 0, 0, 1], [5, 0, 0, 2], [5, 0, 0, 1, 0, 0, 0, 0, 0, 0, 9], [72, 84, 84, 80]] {
            XCTAssertThrowsError(try SOCKS5Reply.read(bytes, proxy: "proxy.test:1080"), "\(bytes)") { error in
                XCTAssertEqual((error as? URLError)?.code, .badServerResponse)
                XCTAssertTrue("\(error)".contains("the proxy proxy.test:1080 does not speak SOCKS5"), "\(error)")
            }
        }
    }
}
