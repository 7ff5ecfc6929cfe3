@testable import BatonClient
import Foundation
import TestSupport
import XCTest

/// Validation against the server's real error responses, and the sentences errors read as.
final class ValidationIntegrationTests: IntegrationTestCase {
    func test_unknownOrder_isUnacceptableStatus404WithServerMessage() async {
        let error = await apiError(client.send(GetOrder(id: 999)))

        guard let matched = error, matched.kind == .unacceptableStatus else {
            return XCTFail("expected unacceptableStatus, got \(error.map { "\($0)" } ?? "nil")")
        }
        let request = matched.request
        let response = matched.response!
        let message = matched.serverMessage
        XCTAssertEqual(request.description, "GET \(origin)/orders/999")
        XCTAssertEqual(response.statusCode, 404)
        XCTAssertEqual(error?.statusCode, 404)
        XCTAssertEqual(message, "not_found")
        XCTAssertEqual(response.body, Data(#"{"message":"not_found"}"#.utf8))
    }

    func test_unknownOrder_describesItselfAsASentence() async {
        let error = await apiError(client.send(GetOrder(id: 999)))

        XCTAssertEqual(error?.description, #"GET \#(origin)/orders/999 failed: the server answered 404 Not Found ("not_found")."#)
    }

    func test_ratingOutOfRange_is422WithTheServersMessage() async {
        let error = await apiError(client.send(Reviews.post(facilityID: 1, content: "最高", rating: 9)))

        guard let matched = error, matched.kind == .unacceptableStatus else {
            return XCTFail("expected unacceptableStatus, got \(error.map { "\($0)" } ?? "nil")")
        }
        let response = matched.response!
        let message = matched.serverMessage
        XCTAssertEqual(response.statusCode, 422)
        XCTAssertEqual(message, "rating must be between 1 and 5")
        XCTAssertEqual(error?.description, #"POST \#(origin)/facilities/1/reviews failed: the server answered 422 Unprocessable Content ("rating must be between 1 and 5")."#)
    }

    func test_missingToken_is401Unauthorized() async throws {
        let client = try makeClient(authorized: false)

        let error = await apiError(client.send(GetOrder(id: 1)))

        guard let matched = error, matched.kind == .unacceptableStatus else {
            return XCTFail("expected unacceptableStatus, got \(error.map { "\($0)" } ?? "nil")")
        }
        let response = matched.response!
        let message = matched.serverMessage
        XCTAssertEqual(response.statusCode, 401)
        XCTAssertEqual(message, "unauthorized")
        XCTAssertEqual(response.value(forHeader: "www-authenticate"), "Bearer")
        XCTAssertEqual(
            error?.description,
            #"GET \#(origin)/orders/1 failed: the server answered 401 Unauthorized ("unauthorized"), and the request carried no "#
                + "credentials (no Authorization or Cookie field): add an Authenticator to the client's interceptors, or set the field in an adapter."
        )
    }

    func test_expiredToken_is401InvalidToken() async throws {
        try await client.send(Demo.expireTokens).value

        let error = await apiError(client.send(GetOrder(id: 1)))

        XCTAssertEqual(error?.statusCode, 401)
        XCTAssertEqual(error?.response?.value(forHeader: "WWW-Authenticate"), #"Bearer error="invalid_token""#)
        XCTAssertEqual(error?.description, #"GET \#(origin)/orders/1 failed: the server answered 401 Unauthorized ("invalid_token")."#)
    }

    func test_htmlContentType_isUnacceptableContentType() async {
        let error = await apiError(client.send(GetOrder(id: 1, fault: "content-type=text/html")))

        guard let matched = error, matched.kind == .unacceptableContentType else {
            return XCTFail("expected unacceptableContentType, got \(error.map { "\($0)" } ?? "nil")")
        }
        let response = matched.response!
        let contentType = matched.contentType
        let acceptable = matched.acceptableContentTypes
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(contentType, "text/html")
        XCTAssertEqual(acceptable, ["application/json", "application/*+json"])
        XCTAssertTrue(error?.description.hasPrefix(#"GET \#(origin)/orders/1 returned "text/html", but the endpoint accepts application/json, application/*+json (body starts with {"id":1,"#) ?? false, "\(String(describing: error))")
    }

    func test_htmlContentType_isAcceptedByADataRequest() async throws {
        let body = try await client.send(Request<Data>(.get, "orders/1", headers: ["X-Demo-Fault": "content-type=text/html"])).value

        XCTAssertEqual(body, Data(#"{"id":1,"name":"山田太郎","ordersum":3960,"subtotal":3600,"bikou":""}"#.utf8))
    }

    func test_garbageBody_isDecodingFailedNamingTheTypeAndTheBodysStart() async {
        let error = await apiError(client.send(GetOrder(id: 1, fault: "body=garbage")))

        guard let matched = error, matched.kind == .decodingFailed else {
            return XCTFail("expected decodingFailed, got \(error.map { "\($0)" } ?? "nil")")
        }
        let response = matched.response!
        let type = matched.decodedType!
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(type, "Order")
        let description = error?.description ?? ""
        XCTAssertTrue(description.hasPrefix("GET \(origin)/orders/1 returned a body that does not decode as Order: "), description)
        XCTAssertTrue(description.hasSuffix(#"(body starts with <html>this is not JSON {"status":)."#), description)
    }

    func test_okStatus_outsideAnEndpointsAcceptableCodes_isUnacceptable() async {
        var request = Request<Order>(.get, "orders/1")
        request.acceptableStatusCodes = 201..<202

        let error = await apiError(client.send(request))

        XCTAssertEqual(error?.statusCode, 200)
        XCTAssertEqual(error?.description, #"GET \#(origin)/orders/1 failed: the server answered 200 OK (body starts with {"id":1,"name":"山田太郎","ordersum":3960,"subtotal":3600,"bikou":""})."#)
    }
}
