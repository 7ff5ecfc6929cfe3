@testable import BatonClient
import Foundation
import TestSupport
import XCTest

/// The non-JSON response types against real responses: `Data`, `String` and `Void`.
final class ResponseDecodingIntegrationTests: IntegrationTestCase {
    /// `GET /health` as text, through an endpoint type whose `Response` is `String`.
    private struct HealthText: Endpoint {
        typealias Response = String
        var path: EndpointPath { "health" }
    }

    func test_dataResponse_isTheBodyByteForByte() async throws {
        let body = try await client.send(Request<Data>(.get, "health")).value

        XCTAssertEqual(body, Data(#"{"status":"ok"}"#.utf8))
    }

    func test_stringEndpointType_receivesTheBodyAsText() async throws {
        let text = try await client.send(HealthText()).value

        XCTAssertEqual(text, #"{"status":"ok"}"#)
    }

    /// `Endpoint`'s documentation: "`Data` and `String` receive the body as it is", for `Request`
    /// too (not JSON-decoded as a JSON string).
    func test_stringRequest_receivesTheBodyAsText() async throws {
        let text = try await client.send(Request<String>(.get, "health")).value

        XCTAssertEqual(text, #"{"status":"ok"}"#)
    }

    func test_voidResponse_acceptsAn204WithAnEmptyBody() async throws {
        let events = EventRecorder()
        let client = try makeClient { $0.monitors = [events] }

        try await client.send(Demo.reset).value

        guard let matched = events.events.last, matched.kind == .succeeded else {
            return XCTFail("expected a succeeded event, got \(events.labels)")
        }
        let response = matched.response!
        XCTAssertEqual(response.statusCode, 204)
        XCTAssertEqual(response.body, Data())
    }

    func test_voidResponse_ignoresAJSONBody() async throws {
        let call = client.send(Request<Void>(.get, "orders/1"))
        try await call.value
        XCTAssertEqual(call.state, .fulfilled)
    }

    func test_decodableResponse_ofTheHealthRoute_decodes() async throws {
        let health = try await client.send(Request<Health>(.get, "health")).value

        XCTAssertEqual(health, Health(status: "ok"))
    }
}
