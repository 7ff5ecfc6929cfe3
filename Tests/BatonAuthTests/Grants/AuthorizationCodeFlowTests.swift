@testable import BatonAuth
import Foundation
import XCTest

/// The authorization code flow's own logic: PKCE, the authorization URL, and the checks of the
/// redirect that ends it, before anything is sent.
final class AuthorizationCodeFlowTests: XCTestCase {
    private let redirect = URL(string: "com.example.app:/signed-in")!

    private func makeAuthenticator(configure: (inout Authenticator.Configuration) -> Void = { _ in }) throws -> Authenticator {
        try Authenticator(tokenURL: URL(string: "https://auth.example.com/token")!) { configuration in
            configuration.authorizationURL = URL(string: "https://auth.example.com/authorize?tenant=7")
            configuration.clientAuthentication = .formBody(clientID: "ios app")
            configure(&configuration)
        }
    }

    private func parameters(of url: URL) throws -> [String: String] {
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
        return try RedirectParameters(query: query).values
    }

    private func failure(_ body: () throws -> Void, file: StaticString = #filePath, line: UInt = #line) -> AuthenticationError? {
        do {
            try body()
            XCTFail("no error", file: file, line: line)
            return nil
        } catch {
            XCTAssertTrue(error is AuthenticationError, "\(error)", file: file, line: line)
            return error as? AuthenticationError
        }
    }

    // MARK: PKCE

    func test_theS256Challenge_isRFC7636AppendixB() {
        let key = ProofKey(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        XCTAssertEqual(key.challenge, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    func test_aNewVerifier_is43UnreservedCharacters_andNeverTheSame() {
        let verifiers = (0..<100).map { _ in ProofKey.random().verifier }
        for verifier in verifiers {
            XCTAssertEqual(verifier.count, 43)
            XCTAssertTrue(verifier.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, verifier)
        }
        XCTAssertEqual(Set(verifiers).count, verifiers.count)
    }

    // MARK: The authorization URL

    func test_theAuthorizationURL_carriesTheClient_theRedirect_theState_andTheChallenge() throws {
        let flow = try makeAuthenticator { $0.scope = "orders" }.beginAuthorization(redirectURI: redirect, additionalParameters: ["prompt": "login"])
        let query = try parameters(of: flow.url)
        XCTAssertEqual(flow.url.host, "auth.example.com")
        XCTAssertEqual(flow.url.path, "/authorize")
        XCTAssertEqual(query["tenant"], "7", "the endpoint's own query is kept")
        XCTAssertEqual(query["response_type"], "code")
        XCTAssertEqual(query["client_id"], "ios app")
        XCTAssertEqual(query["redirect_uri"], "com.example.app:/signed-in")
        XCTAssertEqual(query["state"], flow.state)
        XCTAssertEqual(query["code_challenge"], flow.proofKey.challenge)
        XCTAssertEqual(query["code_challenge_method"], "S256")
        XCTAssertEqual(query["scope"], "orders")
        XCTAssertEqual(query["prompt"], "login")
        XCTAssertNil(query["code_verifier"])
        XCTAssertFalse(flow.url.absoluteString.contains(flow.proofKey.verifier))
    }

    func test_twoFlows_haveTheirOwnStateAndVerifier() throws {
        let authenticator = try makeAuthenticator()
        let first = try authenticator.beginAuthorization(redirectURI: redirect)
        let second = try authenticator.beginAuthorization(redirectURI: redirect)
        XCTAssertNotEqual(first.state, second.state)
        XCTAssertNotEqual(first.proofKey.verifier, second.proofKey.verifier)
    }

    func test_printingAFlow_showsNeitherItsStateNorItsVerifier() throws {
        let flow = try makeAuthenticator().beginAuthorization(redirectURI: redirect)
        var dumped = ""
        dump(flow, to: &dumped)
        for text in ["\(flow)", String(reflecting: flow), dumped] {
            XCTAssertFalse(text.contains(flow.state), text)
            XCTAssertFalse(text.contains(flow.proofKey.verifier), text)
            XCTAssertFalse(text.contains(flow.proofKey.challenge), text)
        }
        XCTAssertEqual("\(flow)", "AuthorizationCodeFlow(https://auth.example.com/authorize, back to com.example.app:/signed-in)")
    }

    func test_withoutAnAuthorizationURL_orAClientID_orWithAParameterItSetsItself_nothingBegins() throws {
        let noPage = failure { _ = try makeAuthenticator { $0.authorizationURL = nil }.beginAuthorization(redirectURI: redirect) }
        XCTAssertEqual(noPage?.kind, .notConfigured)
        XCTAssertTrue(noPage?.description.contains("authorizationURL") == true, "\(String(describing: noPage))")
        let noClient = failure { _ = try makeAuthenticator { $0.clientAuthentication = .none }.beginAuthorization(redirectURI: redirect) }
        XCTAssertEqual(noClient?.kind, .notConfigured)
        XCTAssertTrue(noClient?.description.contains(".formBody(clientID:)") == true, "\(String(describing: noClient))")
        let stateGiven = failure { _ = try makeAuthenticator().beginAuthorization(redirectURI: redirect, additionalParameters: ["state": "mine"]) }
        XCTAssertEqual(stateGiven?.kind, .notConfigured)
    }

    // MARK: The redirect back

    private func redirected(_ flow: AuthorizationCodeFlow, _ query: String) -> URL {
        URL(string: "com.example.app:/signed-in?" + query)!
    }

    func test_theRedirectsCode_isTaken_whenItsStateIsTheFlows() throws {
        let flow = try makeAuthenticator().beginAuthorization(redirectURI: redirect)
        let code = try Authenticator.code(in: redirected(flow, "code=abc%2B1&state=\(flow.state)"), completing: flow)
        XCTAssertEqual(code, "abc+1")
    }

    func test_aRedirectWithAnotherState_orNone_isRefused_evenWhenItCarriesAnError() throws {
        let flow = try makeAuthenticator().beginAuthorization(redirectURI: redirect)
        for query in ["code=abc&state=forged", "code=abc", "error=access_denied&error_description=Go+away&state=forged"] {
            let error = failure { _ = try Authenticator.code(in: redirected(flow, query), completing: flow) }
            XCTAssertEqual(error?.kind, .loginFailed, query)
            XCTAssertTrue(error?.description.contains("state") == true, "\(String(describing: error))")
            XCTAssertFalse(error?.description.contains("Go away") == true, "a forged redirect's words are not shown")
            XCTAssertFalse(error?.description.contains(flow.state) == true)
        }
    }

    func test_anErrorRedirect_isTheServersSentence() throws {
        let flow = try makeAuthenticator().beginAuthorization(redirectURI: redirect)
        let denied = failure {
            _ = try Authenticator.code(in: redirected(flow, "error=access_denied&error_description=The+user+declined&state=\(flow.state)"), completing: flow)
        }
        XCTAssertEqual(denied?.kind, .authorizationDenied)
        XCTAssertEqual(denied?.errorCode, "access_denied")
        XCTAssertEqual(
            denied?.description,
            "The authorization was denied: the authorization server redirected with access_denied (\"The user declined\"); the user can start signing in again."
        )
        let other = failure { _ = try Authenticator.code(in: redirected(flow, "error=invalid_scope&state=\(flow.state)"), completing: flow) }
        XCTAssertEqual(other?.kind, .loginFailed)
        XCTAssertEqual(other?.errorCode, "invalid_scope")
    }

    func test_aRepeatedParameter_anotherRedirectURI_orNoCode_isRefused() throws {
        let flow = try makeAuthenticator().beginAuthorization(redirectURI: redirect)
        let repeated = failure { _ = try Authenticator.code(in: redirected(flow, "code=a&code=b&state=\(flow.state)"), completing: flow) }
        XCTAssertTrue(repeated?.description.contains("\"code\" more than once") == true, "\(String(describing: repeated))")
        let elsewhere = failure { _ = try Authenticator.code(in: URL(string: "com.example.app:/other?code=a&state=\(flow.state)")!, completing: flow) }
        XCTAssertTrue(elsewhere?.description.contains("not the flow's redirect URI") == true, "\(String(describing: elsewhere))")
        let empty = failure { _ = try Authenticator.code(in: redirected(flow, "state=\(flow.state)"), completing: flow) }
        XCTAssertTrue(empty?.description.contains("neither a code nor an error") == true, "\(String(describing: empty))")
        let broken = failure { _ = try Authenticator.code(in: redirected(flow, "code=%FF&state=\(flow.state)"), completing: flow) }
        XCTAssertEqual(broken?.kind, .loginFailed)
    }
}
