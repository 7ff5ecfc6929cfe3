@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// The public types that will grow (APIError, ClientEvent, RequestBody, TransportBody) are structs
/// read through a kind and accessors: each kind sets the details that belong to it and no others.
final class GrowableTypesTests: XCTestCase {
    private let order = summary(.get, "orders/1")

    func test_apiErrorOfEachKind_setsOnlyItsOwnDetails() {
        let transport = APIError.transport(order, URLError(.timedOut))
        XCTAssertEqual(transport.kind, .transport)
        XCTAssertEqual(transport.urlError?.code, .timedOut)
        XCTAssertNil(transport.response)
        XCTAssertNil(transport.field)
        XCTAssertNil(transport.serverMessage)

        let status = APIError.unacceptableStatus(order, HTTPResponse(statusCode: 409), message: "taken")
        XCTAssertEqual(status.kind, .unacceptableStatus)
        XCTAssertEqual(status.statusCode, 409)
        XCTAssertEqual(status.serverMessage, "taken")
        XCTAssertNil(status.urlError)

        let invalid = APIError.invalidRequest(order, field: "path", reason: "empty")
        XCTAssertEqual(invalid.kind, .invalidRequest)
        XCTAssertEqual(invalid.field, "path")
        XCTAssertEqual(invalid.reason, "empty")
        XCTAssertNil(invalid.statusCode)
    }

    func test_apiErrorKind_matchesInASwitchWithADefault() {
        func label(_ error: APIError) -> String {
            switch error.kind {
            case .cancelled: return "cancelled"
            case .unacceptableStatus: return "status"
            default: return "other: \(error.kind)"
            }
        }
        XCTAssertEqual(label(.cancelled(order)), "cancelled")
        XCTAssertEqual(label(.unacceptableStatus(order, HTTPResponse(statusCode: 500), message: nil)), "status")
        XCTAssertEqual(label(.transport(order, URLError(.timedOut))), "other: transport")
    }

    func test_isCancelled_isTrueForTheCancelledKindOnly() {
        XCTAssertTrue(APIError.cancelled(order).isCancelled)
        XCTAssertFalse(APIError.transport(order, URLError(.cancelled)).isCancelled)
    }

    func test_clientEventOfEachKind_setsOnlyItsOwnDetails() {
        let retrying = ClientEvent.retrying(order, attempt: 2, error: URLError(.timedOut), delay: .milliseconds(5))
        XCTAssertEqual(retrying.kind, .retrying)
        XCTAssertEqual(retrying.attempt, 2)
        XCTAssertEqual(retrying.delay, .milliseconds(5))
        XCTAssertNil(retrying.attempts)
        XCTAssertNil(retrying.response)
        XCTAssertEqual(retrying.description, "retrying: GET http://h/orders/1")

        let succeeded = ClientEvent.succeeded(order, response: HTTPResponse(statusCode: 200), attempts: 1, duration: .seconds(1))
        XCTAssertEqual(succeeded.kind, .succeeded)
        XCTAssertEqual(succeeded.response?.statusCode, 200)
        XCTAssertEqual(succeeded.attempts, 1)
        XCTAssertNil(succeeded.error)
        XCTAssertNil(succeeded.attempt)
    }

    func test_transportBody_givesBytesOrAFileNeverBoth() {
        let bytes = TransportBody.data(Data("hi".utf8))
        XCTAssertEqual(bytes.data, Data("hi".utf8))
        XCTAssertNil(bytes.fileURL)
        XCTAssertEqual(bytes.length, 2)

        let file = TransportBody.file(URL(fileURLWithPath: "/nonexistent/baton-body"))
        XCTAssertEqual(file.fileURL?.path, "/nonexistent/baton-body")
        XCTAssertNil(file.data)
        XCTAssertNil(file.length)
    }
}
