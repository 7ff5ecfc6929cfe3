@testable import BatonAuth
import Foundation
import XCTest

/// Reading what an authorization server answers outside the token response: its metadata (RFC
/// 8414) and a device authorization (RFC 8628), each from untrusted bytes.
final class AuthorizationServerAnswerTests: XCTestCase {
    private let issuer = URL(string: "https://auth.example.com")!

    private func metadata(_ fields: [String: Any], issuer: URL? = nil) throws -> AuthorizationServerMetadata {
        try AuthorizationServerMetadata(json: JSONSerialization.data(withJSONObject: fields), issuer: issuer ?? self.issuer)
    }

    private func reason(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as AuthorizationServerMetadata.Unusable {
            return error.reason
        } catch let error as DeviceAuthorization.Unusable {
            return error.reason
        } catch {
            return "\(error)"
        }
    }

    // MARK: Metadata

    func test_theMetadataAddress_putsTheWellKnownPathBeforeTheIssuersPath() {
        XCTAssertEqual(AuthorizationServerMetadata.address(of: issuer)?.absoluteString, "https://auth.example.com/.well-known/oauth-authorization-server")
        XCTAssertEqual(
            AuthorizationServerMetadata.address(of: URL(string: "https://example.com:8443/tenant/1/")!)?.absoluteString,
            "https://example.com:8443/.well-known/oauth-authorization-server/tenant/1"
        )
        XCTAssertNil(AuthorizationServerMetadata.address(of: URL(string: "https://example.com/?x=1")!))
        XCTAssertNil(AuthorizationServerMetadata.address(of: URL(string: "ftp://example.com")!))
    }

    func test_metadata_givesItsEndpoints() throws {
        let read = try metadata([
            "issuer": "https://auth.example.com/", "token_endpoint": "https://auth.example.com/token",
            "authorization_endpoint": "https://auth.example.com/authorize", "revocation_endpoint": "https://auth.example.com/revoke",
        ])
        XCTAssertEqual(read.tokenEndpoint.absoluteString, "https://auth.example.com/token")
        XCTAssertEqual(read.authorizationEndpoint?.absoluteString, "https://auth.example.com/authorize")
        XCTAssertEqual(read.revocationEndpoint?.absoluteString, "https://auth.example.com/revoke")
        XCTAssertNil(read.deviceAuthorizationEndpoint)
    }

    func test_metadata_ofAnotherIssuer_orWithAnHTTPEndpointForAnHTTPSIssuer_isNotTrusted() {
        let otherIssuer = reason { _ = try metadata(["issuer": "https://evil.example.com", "token_endpoint": "https://evil.example.com/token"]) }
        XCTAssertEqual(otherIssuer, "the metadata names another issuer than the one asked for, so it may not be this server's")
        let downgraded = reason {
            _ = try metadata(["issuer": "https://auth.example.com", "token_endpoint": "https://auth.example.com/token", "revocation_endpoint": "http://auth.example.com/revoke"])
        }
        XCTAssertEqual(downgraded, "its revocation_endpoint is not an https URL")
        XCTAssertEqual(reason { _ = try metadata(["issuer": "https://auth.example.com"]) }, "the metadata has no token_endpoint")
        XCTAssertEqual(reason { _ = try metadata(["issuer": "https://auth.example.com", "token_endpoint": 7]) }, "its token_endpoint is not an https URL")
        XCTAssertEqual(reason { _ = try AuthorizationServerMetadata(json: Data("[1]".utf8), issuer: self.issuer) }, "the metadata is not a JSON object")
        XCTAssertNil(reason {
            _ = try metadata(["issuer": "http://127.0.0.1:8080", "token_endpoint": "http://127.0.0.1:8080/tokens"], issuer: URL(string: "http://127.0.0.1:8080")!)
        }, "an http issuer may have http endpoints")
    }

    // MARK: Device authorization

    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func device(_ fields: [String: Any]) throws -> DeviceAuthorization {
        try DeviceAuthorization(json: JSONSerialization.data(withJSONObject: fields), now: now)
    }

    func test_aDeviceAuthorization_isRead_withTheIntervalKeptWithinBounds() throws {
        let read = try device([
            "device_code": "secret-device-code", "user_code": "WDJB-MJHT", "verification_uri": "https://example.com/device",
            "verification_uri_complete": "https://example.com/device?user_code=WDJB-MJHT", "expires_in": 1800,
        ])
        XCTAssertEqual(read.userCode, "WDJB-MJHT")
        XCTAssertEqual(read.deviceCode, "secret-device-code")
        XCTAssertEqual(read.verificationURI.absoluteString, "https://example.com/device")
        XCTAssertEqual(read.verificationURIComplete?.absoluteString, "https://example.com/device?user_code=WDJB-MJHT")
        XCTAssertEqual(read.expiresAt, now + 1800)
        XCTAssertEqual(read.interval, .seconds(5), "RFC 8628's default")
        XCTAssertFalse("\(read)".contains("secret-device-code"))
        var dumped = ""
        dump(read, to: &dumped)
        XCTAssertFalse(dumped.contains("secret-device-code"))

        let busy = try device(["device_code": "d", "user_code": "u", "verification_url": "https://example.com/d", "expires_in": "60", "interval": 0])
        XCTAssertEqual(busy.interval, .seconds(1), "no answer makes the app poll in a busy loop")
        XCTAssertEqual(busy.verificationURI.absoluteString, "https://example.com/d", "the name used before the RFC")
        let slow = try device(["device_code": "d", "user_code": "u", "verification_uri": "https://example.com/d", "expires_in": 1e12, "interval": 1e9])
        XCTAssertEqual(slow.interval, .seconds(600))
        XCTAssertEqual(slow.expiresAt, now + 86_400)
    }

    func test_aDeviceAuthorization_withoutItsCodes_aWebPage_orALifetime_isRefused() {
        let complete: [String: Any] = ["device_code": "d", "user_code": "u", "verification_uri": "https://example.com/d", "expires_in": 60]
        XCTAssertNotNil(reason { _ = try device(complete.filter { $0.key != "device_code" }) })
        XCTAssertNotNil(reason { _ = try device(complete.merging(["verification_uri": "javascript:alert(1)"]) { $1 }) })
        XCTAssertNotNil(reason { _ = try device(complete.merging(["expires_in": -5]) { $1 }) })
        XCTAssertNotNil(reason { _ = try device(complete.merging(["user_code": ""]) { $1 }) })
    }
}
