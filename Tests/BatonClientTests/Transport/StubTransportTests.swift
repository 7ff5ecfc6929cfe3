@testable import BatonClient
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// StubTransport itself, and how the client treats what a transport reports.
final class StubTransportClientTests: XCTestCase {

    // MARK: Recording

    func test_recordsEveryRequestInOrder() async throws {
        let transport = constantStub(HTTPResponse(statusCode: 204))
        let client = try makeClient(transport: transport)
        try await client.send(Request<Void>(.delete, "reviews/1")).value
        try await client.send(Request<Void>(.put, "reviews/2")).value
        XCTAssertEqual(transport.requests.map(\.httpMethod), ["DELETE", "PUT"])
        XCTAssertEqual(transport.requests.map(\.url?.path), ["/reviews/1", "/reviews/2"])
    }

    func test_recordsTheBodyInHttpBody() async throws {
        let transport = constantStub(HTTPResponse(statusCode: 204))
        try await makeClient(transport: transport).send(Request<Void>(.post, "notes", body: .data(Data("hi".utf8), contentType: "text/plain"))).value
        XCTAssertEqual(transport.requests.first?.httpBody, Data("hi".utf8))
    }

    func test_passesTheTransportBodyToTheResponder() async throws {
        let bodies = Recorder<TransportBody?>()
        let transport = StubTransport { _, body in
            bodies.append(body)
            return HTTPResponse(statusCode: 204)
        }
        let client = try makeClient(transport: transport)
        try await client.send(Request<Void>(.post, "notes", body: .data(Data("hi".utf8), contentType: "text/plain"))).value
        try await client.send(Request<Void>(.get, "notes")).value
        XCTAssertEqual(bodies.events, [.data(Data("hi".utf8)), nil])
    }

    func test_answersAsynchronously() async {
        let entered = expectation(description: "the responder runs")
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let transport = StubTransport { _, _ in
            entered.fulfill()
            release.wait()
            return HTTPResponse(statusCode: 204)
        }
        let promise = transport.send(URLRequest(url: URL(string: "http://h/")!), body: nil)
        await fulfillment(of: [entered], timeout: 30)
        XCTAssertEqual(promise.state, .running)
    }

    func test_concurrentCalls_eachGetTheirOwnAnswer() async throws {
        let transport = StubTransport { request, _ in
            let id = request.url?.lastPathComponent ?? "0"
            return .json(#"{"id":\#(id),"name":"n","ordersum":1,"subtotal":1,"bikou":""}"#)
        }
        let client = try makeClient(transport: transport)
        let ids = try await withThrowingTaskGroup(of: Int.self) { group in
            for id in 1...50 {
                group.addTask { try await client.send(Request<Order>(.get, "orders/\(id)")).value.id }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(ids.sorted(), Array(1...50))
        XCTAssertEqual(transport.requests.count, 50)
    }

    // MARK: The json helper

    func test_jsonHelper_setsJSONContentTypeStatusAndBody() {
        let response = HTTPResponse.json(#"{"a":1}"#, statusCode: 201)
        XCTAssertEqual(response.statusCode, 201)
        XCTAssertEqual(response.headers, ["Content-Type": "application/json; charset=utf-8"])
        XCTAssertEqual(response.body, Data(#"{"a":1}"#.utf8))
    }

    func test_jsonHelper_keepsOtherHeaders() {
        let response = HTTPResponse.json("{}", headers: ["Retry-After": "3"])
        XCTAssertEqual(response.headers, ["Content-Type": "application/json; charset=utf-8", "Retry-After": "3"])
    }

    func test_jsonHelper_callersContentTypeWins() {
        let response = HTTPResponse.json("{}", headers: ["Content-Type": "application/problem+json"])
        XCTAssertEqual(response.value(forHeader: "Content-Type"), "application/problem+json")
    }

    /// `.json` merges its `Content-Type` by exact key, so a caller's `content-type` is kept
    /// beside it, and `value(forHeader:)` returns the exact-case default first.
    func test_jsonHelper_callersContentTypeInAnotherCaseWins() {
        let response = HTTPResponse.json("{}", headers: ["content-type": "application/problem+json"])
        XCTAssertEqual(response.value(forHeader: "Content-Type"), "application/problem+json")
    }

    // MARK: Failures

    func test_thrownURLError_failsTheCallAsATransportError() async throws {
        let client = try makeClient(transport: StubTransport { _, _ in throw URLError(.cannotConnectToHost) })
        let error = await awaitError(client.send(Request<Order>(.get, "orders/1")))
        guard let matched = error as? APIError, matched.kind == .transport else {
            return XCTFail("expected transport, got \(String(describing: error))")
        }
        let request = matched.request
        let urlError = matched.urlError!
        XCTAssertEqual(request.description, "GET http://h/orders/1")
        XCTAssertEqual(urlError.code, .cannotConnectToHost)
        XCTAssertEqual(
            (error as? APIError)?.description,
            "GET http://h/orders/1 failed before a response arrived: could not connect to the host (URLError.Code -1004)."
        )
    }

    func test_thrownNonURLError_reachesTheCallerUnchanged() async throws {
        let client = try makeClient(transport: StubTransport { _, _ in throw AdapterFailure(code: 9) })
        let error = await awaitError(client.send(Request<Order>(.get, "orders/1")))
        XCTAssertEqual(error as? AdapterFailure, AdapterFailure(code: 9))
    }

    func test_responseStatus_reachesValidation() async throws {
        let client = try makeClient(transport: constantStub(.json(#"{"message":"no such order"}"#, statusCode: 404)))
        let error = await awaitError(client.send(Request<Order>(.get, "orders/99")))
        guard let matched = error as? APIError, matched.kind == .unacceptableStatus else {
            return XCTFail("expected unacceptableStatus, got \(String(describing: error))")
        }
        let message = matched.serverMessage
        XCTAssertEqual(message, "no such order")
    }

    // MARK: The response size limit

    /// A transport that hands back more than the limit (it read it all) is still held to it.
    func test_bodyOverTheLimit_failsAsResponseTooLarge_whateverTheTransport() async throws {
        let client = try makeClient(transport: constantStub(HTTPResponse(statusCode: 200, body: Data(count: 11)))) {
            $0.maximumResponseSize = 10
        }
        let error = await awaitError(client.send(Request<Data>(.get, "big"))) as? APIError
        XCTAssertEqual(error?.kind, .responseTooLarge)
        XCTAssertEqual(error?.maximumResponseSize, 10)
        XCTAssertEqual(error?.description, "GET http://h/big returned a body larger than the client's maximumResponseSize of 10 bytes; the transfer was stopped.")
    }

    func test_bodyOfExactlyTheLimit_passes() async throws {
        let client = try makeClient(transport: constantStub(HTTPResponse(statusCode: 200, body: Data(count: 10)))) {
            $0.maximumResponseSize = 10
        }
        let body = try await client.send(Request<Data>(.get, "big")).value
        XCTAssertEqual(body.count, 10)
    }

    /// A transport that stops reading reports it with the URLError the protocol names.
    func test_transportsDataLengthExceedsMaximum_failsAsResponseTooLarge() async throws {
        let client = try makeClient(transport: StubTransport { _, _ in throw URLError(.dataLengthExceedsMaximum) })
        let error = await awaitError(client.send(Request<Data>(.get, "big"))) as? APIError
        XCTAssertEqual(error?.kind, .responseTooLarge)
        XCTAssertEqual(error?.maximumResponseSize, Client.Configuration.defaultMaximumResponseSize)
        XCTAssertTrue(error?.description.hasSuffix("maximumResponseSize of 32 MiB; the transfer was stopped.") == true)
    }

    func test_clientHandsItsLimitToTheTransport() throws {
        let transport = ManualTransport()
        let client = try makeClient(transport: transport) { $0.maximumResponseSize = 1234 }
        let call = client.send(Request<Data>(.get, "big"))
        XCTAssertEqual(transport.count, 1)
        XCTAssertEqual(transport.exchange(0).options.maximumResponseSize, 1234)
        call.cancel()
    }
}
