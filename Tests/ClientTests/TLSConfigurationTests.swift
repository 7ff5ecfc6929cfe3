@testable import Baton
import Foundation
import XCTest

/// `TLSConfiguration`: PEM roots and key pins read, and refused with a sentence saying why.
final class TLSConfigurationTests: XCTestCase {
    private static let certificate = """
        -----BEGIN CERTIFICATE-----
        MIIBgTCCASegAwIBAgIBATAKBggqhkjOPQQDAjAdMRswGQYDVQQDDBJCYXRvbiBUZXN0IFJvb3QgQ0EwIBcNMjYwMTAx
        -----END CERTIFICATE-----
        """

    func test_rootsAreRead_fromEveryBlock() throws {
        var tls = TLSConfiguration()
        try tls.trustRoots(pem: "comment\n" + Self.certificate + "\n" + Self.certificate)
        XCTAssertEqual(tls.additionalTrustedRoots.count, 2)
        XCTAssertEqual(tls.additionalTrustedRoots.first?.first, 0x30, "DER starts with a SEQUENCE")
    }

    func test_pemWithoutACertificate_isRefused() {
        var tls = TLSConfiguration()
        XCTAssertThrowsError(try tls.trustRoots(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----")) { error in
            XCTAssertEqual("\(error)", #"the PEM text holds no certificate (no "-----BEGIN CERTIFICATE-----" line)"#)
        }
        XCTAssertThrowsError(try tls.trustRoots(pem: "-----BEGIN CERTIFICATE-----\n!!!!\n-----END CERTIFICATE-----")) { error in
            XCTAssertEqual("\(error)", "certificate 1 of the PEM text is not a base64 DER certificate")
        }
        XCTAssertThrowsError(try tls.trustRoots(pem: "-----BEGIN CERTIFICATE-----\nMIIB")) { error in
            XCTAssertEqual("\(error)", #"certificate 1 of the PEM text has no "-----END CERTIFICATE-----" line"#)
        }
        XCTAssertTrue(tls.additionalTrustedRoots.isEmpty, "nothing half-added")
    }

    func test_aMissingFile_isNamed() {
        var tls = TLSConfiguration()
        XCTAssertThrowsError(try tls.trustRoots(contentsOf: URL(fileURLWithPath: "/nonexistent/ca.pem"))) { error in
            XCTAssertTrue("\(error)".hasPrefix("the file /nonexistent/ca.pem cannot be read as PEM text"), "\(error)")
        }
    }

    func test_pins_areReadWithOrWithoutPrefix_perLowerCasedHost_andReplaced() throws {
        let digest = Data(repeating: 7, count: 32).base64EncodedString()
        var tls = TLSConfiguration()
        try tls.pin("API.example.com", publicKeySHA256: ["sha256/" + digest, digest])
        XCTAssertEqual(tls.pinnedPublicKeys["api.example.com"], [Data(repeating: 7, count: 32), Data(repeating: 7, count: 32)])
        try tls.pin("api.example.com", publicKeySHA256: [])
        XCTAssertNil(tls.pinnedPublicKeys["api.example.com"], "an empty list removes the pins")
    }

    func test_aPinThatIsNoDigest_isRefused() {
        var tls = TLSConfiguration()
        XCTAssertThrowsError(try tls.pin("api.example.com", publicKeySHA256: ["sha256/abc"])) { error in
            XCTAssertEqual("\(error)", #"the pin "sha256/abc" for api.example.com is not the base64 of a SHA-256 digest (32 bytes, 44 characters ending in "=")"#)
        }
        let short = Data(count: 16).base64EncodedString()
        XCTAssertThrowsError(try tls.pin("api.example.com", publicKeySHA256: [short]), "a digest of 16 bytes") { error in
            XCTAssertTrue("\(error)".hasPrefix("the pin \"\(short)\" for api.example.com is not the base64 of a SHA-256 digest"), "\(error)")
        }
        XCTAssertThrowsError(try tls.pin(" ", publicKeySHA256: [])) { error in
            XCTAssertEqual("\(error)", "a pin needs a host name; the host given is empty")
        }
    }
}
