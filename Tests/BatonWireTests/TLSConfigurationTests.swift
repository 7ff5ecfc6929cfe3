@testable import BatonWire
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
            XCTAssertEqual("\(error)", #"the PEM text holds a private key, not a certificate (no "-----BEGIN CERTIFICATE-----" line)"#)
        }
        XCTAssertThrowsError(try tls.trustRoots(pem: "hello")) { error in
            XCTAssertEqual("\(error)", #"the PEM text holds no certificate (no "-----BEGIN CERTIFICATE-----" line)"#)
        }
        XCTAssertThrowsError(try tls.trustRoots(pem: "/etc/myapp/ca.pem")) { error in
            XCTAssertEqual("\(error)", "the PEM text holds no certificate: it looks like a file's path; read the file with trustRoots(contentsOf:)")
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
            XCTAssertEqual("\(error)", "the file /nonexistent/ca.pem cannot be read as PEM text (there is no such file)")
        }
        XCTAssertThrowsError(try tls.trustRoots(contentsOf: FileManager.default.temporaryDirectory)) { error in
            XCTAssertTrue("\(error)".hasSuffix(" is a folder; give the PEM file of the root certificate in it"), "\(error)")
        }
    }

    func test_pins_areReadWithOrWithoutPrefix_inBase64OrHex_perLowerCasedHost_andReplaced() throws {
        let digest = Data(repeating: 7, count: 32).base64EncodedString()
        var tls = TLSConfiguration()
        try tls.pin("API.example.com", publicKeySHA256: ["sha256/" + digest, digest + "\n", String(repeating: "07", count: 32)])
        XCTAssertEqual(tls.pinnedPublicKeys["api.example.com"], Array(repeating: Data(repeating: 7, count: 32), count: 3))
        try tls.pin("[::1]", publicKeySHA256: [digest])
        XCTAssertNotNil(tls.pinnedPublicKeys["::1"], "an IPv6 address, bracketed as in a URL")
        try tls.pin("api.example.com", publicKeySHA256: [])
        XCTAssertNil(tls.pinnedPublicKeys["api.example.com"], "an empty list removes the pins")
    }

    func test_aPinThatIsNoDigest_isRefused() {
        var tls = TLSConfiguration()
        XCTAssertThrowsError(try tls.pin("api.example.com", publicKeySHA256: ["sha256/abc"])) { error in
            XCTAssertEqual("\(error)", #"the pin "sha256/abc" for api.example.com is not a SHA-256 digest: 44 characters of base64 ending in "=", or 64 hex digits"#)
        }
        XCTAssertThrowsError(try tls.pin("api.example.com", publicKeySHA256: ["sha1/abc"])) { error in
            XCTAssertEqual("\(error)", #"the pin "sha1/abc" for api.example.com is a sha1 digest; pins are SHA-256 digests of the public key (sha256/...)"#)
        }
        let digest = Data(repeating: 7, count: 32).base64EncodedString()
        for host in ["https://api.example.com", "api.example.com:8443"] {
            XCTAssertThrowsError(try tls.pin(host, publicKeySHA256: [digest]), host) { error in
                XCTAssertTrue("\(error)".hasPrefix("\"\(host)\" is not a host name: give the host alone"), "\(error)")
            }
        }
        let short = Data(count: 16).base64EncodedString()
        XCTAssertThrowsError(try tls.pin("api.example.com", publicKeySHA256: [short]), "a digest of 16 bytes") { error in
            XCTAssertTrue("\(error)".hasPrefix("the pin \"\(short)\" for api.example.com is not a SHA-256 digest"), "\(error)")
        }
        XCTAssertThrowsError(try tls.pin(" ", publicKeySHA256: [])) { error in
            XCTAssertEqual("\(error)", "a pin needs a host name; the host given is empty")
        }
    }
}
