@testable import BatonPromise
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// A body in a content coding Baton's own transport (`HTTP1Transport`) cannot undo: refused with
/// a sentence naming the coding, unless the request asked for it by name; never handed on as if
/// it were the body.
final class ContentCodingIntegrationTests: XCTestCase {
    private let body = "\u{1b}\u{0}\u{f8}not really brotli"

    /// A server answering every request `200` with `body`, in the `coding` named.
    private func server(coding: String) throws -> ScriptedServer {
        let head = "HTTP/1.1 200 OK\r\nContent-Encoding: \(coding)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return try ScriptedServer(response: Array((head + body).utf8))
    }

    private func client(_ server: ScriptedServer) throws -> Client {
        try Client(baseURL: server.url, transport: HTTP1Transport()) { $0.retryPolicy = nil }
    }

    func test_aBodyCodedAsBr_unasked_failsNamingTheCoding() async throws {
        let server = try server(coding: "br")

        let error = await awaitError(try client(server).send(Request<Data>(.get, "answer")))

        let refused = try XCTUnwrap(error as? APIError, "\(String(describing: error))")
        XCTAssertEqual(refused.urlError?.code, .cannotDecodeContentData)
        XCTAssertTrue("\(refused)".contains("the server sent a body coded as br, which Baton did not ask for and cannot decode"), "\(refused)")
    }

    func test_aBodyCodedAsIdentity_isTheBody() async throws {
        let server = try server(coding: "identity")
        let data = try await client(server).send(Request<Data>(.get, "answer")).value
        XCTAssertEqual(String(decoding: data, as: UTF8.self), body)
    }

    func test_aBodyCodedAsTheRequestAsked_isHandedOnAsItCame() async throws {
        let server = try server(coding: "br")
        let data = try await client(server).send(Request<Data>(.get, "answer", headers: ["Accept-Encoding": "br"])).value
        XCTAssertEqual(String(decoding: data, as: UTF8.self), body)
    }

    /// A `HEAD` response names the coding its `GET` would have, with no body to refuse.
    func test_aHEADAnswerNamingBr_isNotRefused() async throws {
        let server = try server(coding: "br")
        let response = try await client(server).send(Request<HTTPResponse>(.head, "answer")).value
        XCTAssertEqual(response.value(forHeader: "Content-Encoding"), "br")
    }

    private func awaitError<T>(_ promise: @autoclosure () throws -> Promise<T>) async -> (any Error)? {
        do {
            _ = try await promise().value
            return nil
        } catch {
            return error
        }
    }
}
