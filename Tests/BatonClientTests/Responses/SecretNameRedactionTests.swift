@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// Every name the documentation promises to hide, hidden wherever it travels (query, header, form, JSON
/// and plain-text bodies, and the server's response quoted in an error), in every log line and in
/// the error's sentence: names that match only by their pattern, the client's own names, and
/// names compared ignoring case, `_` and `-`.
final class SecretNameRedactionTests: XCTestCase {
    /// What a call left in words: every line its logging monitor wrote (attempts included), and
    /// its error's description and localized description.
    private func everythingSaid<T>(
        about endpoint: Request<T>, answer: @escaping @Sendable (URLRequest) -> HTTPResponse,
        configure: (inout Client.Configuration) -> Void = { _ in }
    ) async throws -> [String] {
        let lines = Recorder<String>()
        let client = try makeClient(transport: StubTransport { request, _ in answer(request) }) { configuration in
            configuration.monitors = [LoggingMonitor(showsAttempts: true) { lines.append($0) }]
            configure(&configuration)
        }
        let error = await awaitError(client.send(endpoint))
        XCTAssertNotNil(error, "the call was to fail")
        XCTAssertEqual(lines.count, 3, "started, attempt and failed: \(lines.events)")
        return lines.events + [error.map { "\($0)" } ?? "", error?.localizedDescription ?? ""]
    }

    /// Names that only the secret patterns catch (`token`, `secret`, `password`, `...key`,
    /// `signature`), and `code`.
    private static let patternNames = ["upload_token", "webhook_secret", "new_password", "private_key", "url_signature", "code"]

    /// The signed URLs of Azure (shared-access `sig`), AWS (SigV4 and V2) and Google Cloud, and
    /// OAuth's and other common secret parameters in a query: hidden in every line and error,
    /// while the URL's other parameters stay readable.
    func test_signedURLsAndCommonSecretParameters_areHidden_theirOtherParametersKept() async throws {
        let secrets = [
            "sig", "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token", "AWSAccessKeyId", "Signature",
            "X-Goog-Signature", "X-Goog-Credential", "assertion", "client_assertion", "jwt", "pwd", "pass", "hmac",
            "sid", "SAMLResponse", "ticket", "csrf_token", "xsrf", "auth",
        ]
        for name in secrets {
            let query = [URLQueryItem(name: "sv", value: "2024-11-04"), URLQueryItem(name: name, value: "MARK-\(name)")]
            let said = try await everythingSaid(
                about: Request<Order>(.get, "files/a.jpg", query: query),
                answer: { _ in HTTPResponse(statusCode: 403) }
            )
            for text in said { XCTAssertFalse(text.contains("MARK"), "\(name): \(text)") }
            XCTAssertTrue(said.last?.contains("sv=2024-11-04") == true, "\(name): \(said)")
        }
    }

    func test_namesMatchingTheSecretPatterns_areHiddenInQueriesHeadersAndBodies_inLinesAndErrors() async throws {
        for name in Self.patternNames {
            let query = [URLQueryItem(name: name, value: "MARK-query")]
            let headers = [name: "MARK-header"]
            let bodies: [RequestBody] = [
                .form([(name: "note", value: "ok"), (name: name, value: "MARK-form")]),
                .data(Data(#"{"note": "ok", "\#(name)": "MARK-json"}"#.utf8), contentType: "application/json"),
                .data(Data("note: ok\n\(name): MARK-text".utf8), contentType: "text/plain"),
            ]
            for body in bodies {
                let said = try await everythingSaid(
                    about: Request<Order>(.post, "notes", query: query, headers: headers, body: body),
                    answer: { _ in .json(#"{"note": "refused", "\#(name)": "MARK-answer"}"#, statusCode: 422) }
                )
                for text in said { XCTAssertFalse(text.contains("MARK"), "\(name): \(text)") }
            }
        }
    }

    func test_aServersMessage_quotedInTheError_hidesTheSecretsItNames() async throws {
        for name in Self.patternNames + ["access_token", "password"] {
            let said = try await everythingSaid(
                about: Request<Order>(.get, "orders/1"),
                answer: { _ in .json(#"{"message": "\#(name)=MARK-message is not accepted"}"#, statusCode: 401) }
            )
            XCTAssertTrue(said.last?.contains("is not accepted") ?? false, said.last ?? "")
            for text in said { XCTAssertFalse(text.contains("MARK"), "\(name): \(text)") }
        }
    }

    func test_bodiesOverAMegabyte_sentOrQuotedInAnError_hideTheirSecrets() async throws {
        // Past a megabyte, bodies are scanned as text rather than parsed.
        let padding = String(repeating: "x", count: 2 << 20)
        let sent = #"{"refresh_token": "MARK-sent", "pad": "\#(padding)"}"#
        let answered = #"{"access_token": "MARK-answer", "webhook_secret": "MARK-answer2", "pad": "\#(padding)"}"#
        let said = try await everythingSaid(
            about: Request<Order>(.post, "notes", body: .data(Data(sent.utf8), contentType: "application/json")),
            answer: { _ in .json(answered, statusCode: 500) }
        )
        XCTAssertTrue(said.last?.contains("body starts with") ?? false, String(said.last?.prefix(300) ?? ""))
        for text in said { XCTAssertFalse(text.contains("MARK"), String(text.prefix(300))) }
    }

    func test_theClientsOwnNames_areHiddenInTheMonitorsLines_comparedIgnoringCaseUnderscoresAndDashes() async throws {
        // Named as the app wrote them; sent and answered under other spellings of the same names.
        let said = try await everythingSaid(
            about: Request<Order>(.get, "orders", query: [URLQueryItem(name: "Order-Ref", value: "MARK-query")],
                                  headers: ["X-Device-Id": "MARK-header"]),
            answer: { _ in .json(#"{"ORDER_REF": "MARK-answer", "note": "refused"}"#, statusCode: 422) },
            configure: { $0.redaction = Redaction(headers: ["x_device_id"], bodyFields: ["order_ref"], matchesSecretPatterns: false) }
        )
        XCTAssertTrue(said.contains { $0.hasPrefix("✗ GET http://h/orders?Order-Ref=<redacted> failed") }, "\(said)")
        for text in said { XCTAssertFalse(text.contains("MARK"), text) }
    }
}
