import XCTest
@testable import DemoServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `TokenStyle.rfc6749`: a strict RFC 6749 token endpoint and RFC 6750 challenges, spoken over raw
/// sockets (URLSession would answer the `Basic` challenge itself).
final class TokenStyleTests: ServerTestCase {
    override func makeConfiguration() -> DemoServer.Configuration {
        var configuration = super.makeConfiguration()
        configuration.tokenStyle = .rfc6749(clientID: "my app", clientSecret: "s:&")
        return configuration
    }

    /// `POST /tokens` with `form` and, if given, `Authorization: <authorization>`.
    private func postTokens(_ form: String, authorization: String?) throws -> RawClient.Response {
        let client = try rawClient()
        let field = authorization.map { "Authorization: \($0)\n" } ?? ""
        client.send("POST /tokens HTTP/1.1\nHost: x\nContent-Type: application/x-www-form-urlencoded\n\(field)Content-Length: \(form.utf8.count)\n\n".crlf + form)
        return try client.readResponse()
    }

    /// HTTP Basic for the configured client: each part form-encoded, then base64 (RFC 6749 §2.3.1).
    private let clientCredentials = "Basic " + Data("my+app:s%3A%26".utf8).base64EncodedString()

    func test_passwordGrant_withBasicClientAuthentication_answersRFC6749Fields() throws {
        let reply = try postTokens("grant_type=password&username=demo&password=demo", authorization: clientCredentials)
        XCTAssertEqual(reply.status, 200)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])
        XCTAssertEqual(Set(object.keys), ["access_token", "token_type", "expires_in", "refresh_token"])
        XCTAssertEqual(object["token_type"] as? String, "Bearer")
    }

    func test_missingOrWrongClientAuthentication_answers401InvalidClient() throws {
        for authorization in [nil, "Basic " + Data("my+app:wrong".utf8).base64EncodedString(), "Bearer x", "Basic !!!"] {
            let reply = try postTokens("grant_type=password&username=demo&password=demo", authorization: authorization)
            XCTAssertEqual(reply.status, 401, authorization ?? "none")
            XCTAssertEqual(reply.headers["www-authenticate"], "Basic realm=\"demo\"")
            let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])
            XCTAssertEqual(object["error"] as? String, "invalid_client")
        }
    }

    func test_errors_carryTheRFC6749ErrorField() throws {
        let reply = try postTokens("grant_type=password&username=demo&password=nope", authorization: clientCredentials)
        XCTAssertEqual(reply.status, 400)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])
        XCTAssertEqual(object as? [String: String], ["error": "invalid_grant"])
    }

    func test_refusedTokens_getChallengesOnly_withNoBody() throws {
        let client = try rawClient()
        client.send("GET /orders/1 HTTP/1.1\nHost: x\nAuthorization: Bearer unknown\n\n".crlf)
        let expired = try client.readResponse()
        XCTAssertEqual(expired.status, 401)
        XCTAssertEqual(expired.headers["www-authenticate"], "Bearer realm=\"demo\", error=\"invalid_token\", error_description=\"The access token expired\"")
        XCTAssertEqual(expired.body, [])

        client.send("GET /orders/1 HTTP/1.1\nHost: x\n\n".crlf)
        let missing = try client.readResponse()
        XCTAssertEqual(missing.status, 401)
        XCTAssertEqual(missing.headers["www-authenticate"], "Bearer realm=\"demo\"")
        XCTAssertEqual(missing.body, [])
    }

    func test_expireAccessTokens_expiresEveryAccessToken_atOnce() throws {
        let login = try postTokens("grant_type=password&username=demo&password=demo", authorization: clientCredentials)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(login.body)) as? [String: Any])
        let token = try XCTUnwrap(object["access_token"] as? String)
        let client = try rawClient()
        client.send("GET /orders/1 HTTP/1.1\nHost: x\nAuthorization: Bearer \(token)\n\n".crlf)
        XCTAssertEqual(try client.readResponse().status, 200)

        server.expireAccessTokens()

        client.send("GET /orders/1 HTTP/1.1\nHost: x\nAuthorization: Bearer \(token)\n\n".crlf)
        XCTAssertEqual(try client.readResponse().status, 401)
    }
}
