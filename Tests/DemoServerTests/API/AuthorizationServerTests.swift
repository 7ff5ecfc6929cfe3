@testable import DemoServer
import BatonOpenSSL
import Foundation
import XCTest

/// DemoServer's authorization server as a client that is not Baton meets it: the authorization
/// page, the code exchange with PKCE, client credentials, the device grant, revocation and metadata,
/// and what each does with bad input.
final class AuthorizationServerTests: ServerTestCase {
    /// RFC 7636 Appendix B's pair.
    private let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    private let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    /// `GET /authorize?query` over a raw connection (a redirect is read, never followed).
    private func authorize(_ query: String) throws -> RawClient.Response {
        let client = try rawClient()
        client.send("GET /authorize?\(query) HTTP/1.1\r\nHost: x\r\n\r\n")
        return try client.readResponse()
    }

    private func redirectParameters(_ response: RawClient.Response) throws -> [String: String] {
        let location = try XCTUnwrap(response.headers["location"] ?? response.headers["Location"])
        let query = try XCTUnwrap(location.split(separator: "?", maxSplits: 1).last)
        return Dictionary(uniqueKeysWithValues: try XCTUnwrap(FormURLEncoded.decode(query)).map { ($0.name, $0.value) })
    }

    private func code(redirect: String = "app%3A%2Fback") throws -> String {
        let response = try authorize("response_type=code&client_id=app&redirect_uri=\(redirect)&state=s1&code_challenge=\(challenge)&code_challenge_method=S256")
        XCTAssertEqual(response.status, 302)
        let parameters = try redirectParameters(response)
        XCTAssertEqual(parameters["state"], "s1")
        return try XCTUnwrap(parameters["code"])
    }

    func test_theAuthorizationPage_redirectsBackWithACode_thatWorksOnceWithItsVerifier() async throws {
        let code = try code()
        let exchange = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", "app:/back"), ("client_id", "app"), ("code_verifier", verifier)]
        let tokens = try await postForm("/tokens", exchange)
        XCTAssertEqual(tokens.status, 200, tokens.text)
        XCTAssertNotNil(tokens.object["token"] as? String)
        XCTAssertNotNil(tokens.object["refresh_token"] as? String)
        let again = try await postForm("/tokens", exchange)
        XCTAssertEqual(again.status, 400)
        XCTAssertEqual(again.message, "invalid_grant")
    }

    func test_aCode_withAnotherVerifier_redirectURI_orClient_isRefused_andUsedUp() async throws {
        for wrong in [("code_verifier", String(repeating: "a", count: 43)), ("redirect_uri", "app:/elsewhere"), ("client_id", "other")] {
            let code = try code()
            var fields = ["grant_type": "authorization_code", "code": code, "redirect_uri": "app:/back", "client_id": "app", "code_verifier": verifier]
            fields[wrong.0] = wrong.1
            let refused = try await postForm("/tokens", fields.map { ($0.key, $0.value) })
            XCTAssertEqual(refused.message, "invalid_grant", wrong.0)
            fields[wrong.0] = nil
            fields["redirect_uri"] = "app:/back"; fields["client_id"] = "app"; fields["code_verifier"] = verifier
            let afterwards = try await postForm("/tokens", fields.map { ($0.key, $0.value) })
            XCTAssertEqual(afterwards.message, "invalid_grant", "a code refused once is used up")
        }
    }

    func test_theAuthorizationPage_neverRedirectsToAnUncheckedAddress_andRequiresPKCE() throws {
        XCTAssertEqual(try authorize("response_type=code&client_id=app").status, 400, "no redirect_uri")
        XCTAssertEqual(try authorize("response_type=code&redirect_uri=app%3A%2Fback").status, 400, "no client_id")
        XCTAssertEqual(try authorize("response_type=code&client_id=app&redirect_uri=app%3A%2Fback%0D%0AX-Evil%3A1").status, 400)
        XCTAssertEqual(try authorize("response_type=code&client_id=app&redirect_uri=relative").status, 400)
        XCTAssertEqual(try authorize("%ZZ").status, 400)

        let noPKCE = try authorize("response_type=code&client_id=app&redirect_uri=app%3A%2Fback&state=s")
        XCTAssertEqual(noPKCE.status, 302)
        XCTAssertEqual(try redirectParameters(noPKCE)["error"], "invalid_request")
        XCTAssertEqual(try redirectParameters(noPKCE)["state"], "s")
        let token = try authorize("response_type=token&client_id=app&redirect_uri=app%3A%2Fback%3Fkeep%3D1")
        XCTAssertEqual(try redirectParameters(token)["error"], "unsupported_response_type")
        XCTAssertEqual(try redirectParameters(token)["keep"], "1", "the redirect URI's own query is kept")
        let denied = try authorize("response_type=code&client_id=app&redirect_uri=app%3A%2Fback&code_challenge=\(challenge)&code_challenge_method=S256&demo_decision=deny")
        XCTAssertEqual(try redirectParameters(denied)["error"], "access_denied")
    }

    func test_clientCredentials_needTheDemoServicesSecret_andIssueNoRefreshToken() async throws {
        let form = try await postForm("/tokens", [("grant_type", "client_credentials"), ("client_id", "demo-service"), ("client_secret", "demo-secret")])
        XCTAssertEqual(form.status, 200, form.text)
        XCTAssertNil(form.object["refresh_token"])
        let basic = "Basic " + Data("demo-service:demo-secret".utf8).base64EncodedString()
        let header = try await postForm("/tokens", [("grant_type", "client_credentials")], headers: ["Authorization": basic])
        XCTAssertEqual(header.status, 200, header.text)
        // Over a raw connection: URLSession answers a Basic challenge itself.
        let client = try rawClient()
        let body = Array("grant_type=client_credentials&client_id=demo-service&client_secret=nope".utf8)
        client.send(Array("POST /tokens HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.count)\r\n\r\n".utf8) + body)
        let wrong = try client.readResponse()
        XCTAssertEqual(wrong.status, 401)
        XCTAssertTrue(String(decoding: wrong.body, as: UTF8.self).contains("invalid_client"))
    }

    func test_theDeviceGrant_isPending_untilTheUserDecides_andAnUnknownUserCodeIs404() async throws {
        let started = try await postForm("/device_authorization", [("client_id", "tv")])
        XCTAssertEqual(started.status, 200, started.text)
        let deviceCode = try XCTUnwrap(started.object["device_code"] as? String)
        let userCode = try XCTUnwrap(started.object["user_code"] as? String)
        XCTAssertEqual(started.object["verification_uri"] as? String, server.baseURL.absoluteString + "/device")
        XCTAssertEqual(started.object["interval"] as? Int, 5)
        let poll = [("grant_type", "urn:ietf:params:oauth:grant-type:device_code"), ("device_code", deviceCode)]
        let pending = try await postForm("/tokens", poll)
        XCTAssertEqual(pending.message, "authorization_pending")
        let tooSoon = try await postForm("/tokens", poll)
        XCTAssertEqual(tooSoon.message, "slow_down")

        let unknown = try await postForm("/device", [("user_code", "ZZZZ-ZZZZ"), ("decision", "approve")])
        XCTAssertEqual(unknown.status, 404)
        let bad = try await postForm("/device", [("user_code", userCode), ("decision", "maybe")])
        XCTAssertEqual(bad.status, 400)
        let approved = try await postForm("/device", [("user_code", userCode.lowercased()), ("decision", "approve")])
        XCTAssertEqual(approved.status, 200, approved.text)
        let stats = try await self.stats()
        XCTAssertEqual(stats["device_polls"] as? Int, 2)
    }

    func test_revocation_isAlways200_andStopsARefreshToken() async throws {
        let (_, refresh) = try await login()
        let unknown = try await postForm("/revoke", [("token", "never-issued")])
        XCTAssertEqual(unknown.status, 200)
        let revoked = try await postForm("/revoke", [("token", refresh), ("token_type_hint", "refresh_token")])
        XCTAssertEqual(revoked.status, 200)
        let refused = try await postForm("/tokens", [("grant_type", "refresh_token"), ("refresh_token", refresh)])
        XCTAssertEqual(refused.message, "invalid_grant")
        let stats = try await self.stats()
        XCTAssertEqual(stats["tokens_revoked"] as? Int, 1)
    }

    func test_theMetadata_namesThisServerAsIssuer_andItsEndpoints() async throws {
        let metadata = try await send("GET", "/.well-known/oauth-authorization-server")
        XCTAssertEqual(metadata.status, 200)
        let issuer = server.baseURL.absoluteString
        XCTAssertEqual(metadata.object["issuer"] as? String, issuer)
        XCTAssertEqual(metadata.object["token_endpoint"] as? String, issuer + "/tokens")
        XCTAssertEqual(metadata.object["authorization_endpoint"] as? String, issuer + "/authorize")
        XCTAssertEqual(metadata.object["code_challenge_methods_supported"] as? [String], ["S256"])
    }

    func test_theGrantStore_isBounded_andForgetsExpiredCodes() {
        var store = GrantStore()
        let now = ContinuousClock.now
        for _ in 0..<GrantStore.capacity {
            XCTAssertNotNil(store.issueCode(clientID: "a", redirectURI: "app:/b", challenge: challenge, now: now))
        }
        XCTAssertNil(store.issueCode(clientID: "a", redirectURI: "app:/b", challenge: challenge, now: now), "full")
        XCTAssertNotNil(store.issueCode(clientID: "a", redirectURI: "app:/b", challenge: challenge, now: now + GrantStore.codeLifetime), "the expired ones are forgotten")
    }
}

/// The page opened in the process, and a device interval of one's own.
final class AuthorizationPageTests: ServerTestCase {
    override func makeConfiguration() -> DemoServer.Configuration {
        var configuration = super.makeConfiguration()
        configuration.devicePollInterval = 1
        return configuration
    }

    func test_openingThePageInTheProcess_givesTheRedirectBack_orSaysWhyNot() throws {
        let page = URL(string: "http://x/authorize?response_type=code&client_id=app&redirect_uri=app%3A%2Fback&state=s&code_challenge_method=S256&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")!
        let back = try server.openAuthorizationPage(page)
        XCTAssertTrue(back.absoluteString.hasPrefix("app:/back?code=ac_"), back.absoluteString)
        XCTAssertTrue(back.absoluteString.hasSuffix("&state=s"), back.absoluteString)
        XCTAssertThrowsError(try server.openAuthorizationPage(URL(string: "http://x/authorize?client_id=app")!)) { error in
            XCTAssertTrue("\(error)".contains("redirect_uri"), "\(error)")
        }
    }

    func test_theDevicePollInterval_isTheConfiguredOne() async throws {
        let started = try await postForm("/device_authorization", [("client_id", "tv")])
        XCTAssertEqual(started.object["interval"] as? Int, 1)
    }
}
