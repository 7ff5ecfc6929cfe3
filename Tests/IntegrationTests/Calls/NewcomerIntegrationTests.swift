@testable import BatonPromise
@testable import BatonClient
@testable import BatonAuth
import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// What a newcomer meets against the real demo API, each answered with a sentence that says what
/// to do: a call made before logging in, a token endpoint whose field names were not set, a failed
/// photo among several, a GET with a body; and the demo server's counts as a type.
final class NewcomerIntegrationTests: IntegrationTestCase {
    /// The error `promise` rejects with.
    private func error<T>(of promise: Promise<T>) async -> (any Error)? {
        do {
            _ = try await promise.value
            return nil
        } catch {
            return error
        }
    }

    /// An authenticator for the demo dialect, and a client that only it authenticates.
    private func authenticatedClient() throws -> (Authenticator, Client) {
        let authenticator = try Authenticator(tokenURL: server.baseURL.appending(path: "tokens")) {
            $0.fields = TokenResponseFields(accessToken: "token")
        }
        return (authenticator, try makeClient(authorized: false) { $0.interceptors = [authenticator] })
    }

    // MARK: Calling before logging in

    func test_aCallBeforeLoggingIn_failsSayingToLogInFirst() async throws {
        let (_, client) = try authenticatedClient()

        let error = await error(of: client.send(Request<Order>(.get, "orders/1")))

        let refused = try XCTUnwrap(error as? AuthenticationError, "\(String(describing: error))")
        XCTAssertEqual(refused.kind, .notLoggedIn)
        XCTAssertEqual(
            refused.description,
            "Not logged in: GET \(origin)/orders/1 was answered 401 Unauthorized, and the authenticator has no credentials to send;"
                + " sign in first with one of the authenticator's grants."
        )
        XCTAssertEqual((refused.underlyingError as? APIError)?.statusCode, 401)
    }

    func test_aCallAfterLoggingOut_failsSayingToLogInFirst() async throws {
        let (authenticator, client) = try authenticatedClient()
        _ = try await authenticator.logIn(username: "demo", password: "demo").value
        _ = try await client.send(Request<Order>(.get, "orders/1")).value
        authenticator.logOut()

        let error = await error(of: client.send(Request<Order>(.get, "orders/1")))

        XCTAssertEqual((error as? AuthenticationError)?.kind, .notLoggedIn, "\(String(describing: error))")
    }

    /// A request that carries an `Authorization` of the app's own is the app's business: its 401
    /// is the server's response, not a missing login.
    func test_aRequestWithItsOwnAuthorization_keepsTheServersAnswer() async throws {
        let (_, client) = try authenticatedClient()

        let error = await error(of: client.send(Request<Order>(.get, "orders/1", headers: ["Authorization": "Bearer not-a-token"])))

        XCTAssertEqual((error as? APIError)?.statusCode, 401, "\(String(describing: error))")
    }

    // MARK: Token field names

    /// The demo API calls its token `token`; an authenticator left with RFC 6749's names is told
    /// the names the response had (never their values) and where to set them.
    func test_aTokenResponseReadingWithOtherFieldNames_namesThem_andTheSetting() async throws {
        let authenticator = try Authenticator(tokenURL: server.baseURL.appending(path: "tokens"))

        let error = await error(of: authenticator.logIn(username: "demo", password: "demo"))

        let failed = try XCTUnwrap(error as? AuthenticationError, "\(String(describing: error))")
        XCTAssertEqual(failed.kind, .loginFailed)
        XCTAssertEqual(
            failed.description,
            #"Logging in failed: the token endpoint's answer has no "access_token" string; its fields are "expires_in","#
                + #" "refresh_token" and "token" (set the authenticator's configuration.fields, a TokenResponseFields, to read other names)."#
        )
    }

    // MARK: A failed photo among several

    func test_aFailedUploadsOutcome_namesItsFile() async throws {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "photos", rating: 4)).value
        let bytes = Data(Multipart.imageBytes(count: 2_000))
        let uploads = [
            Photos.upload(bytes, index: 1, to: review.id),
            Photos.upload(bytes, index: 2, to: review.id, fault: "status=400"),
        ]

        let outcomes = try await client.sendEach(uploads).value

        XCTAssertNil(outcomes[0].error)
        let failed = try XCTUnwrap(outcomes[1].error as? APIError)
        XCTAssertEqual(failed.request.files, ["photo2.jpg"])
        XCTAssertEqual(
            "\(outcomes[1])",
            #"failed: POST \#(origin)/reviews/1/photos (sending photo2.jpg) failed: the server answered 400 Bad Request ("injected")."#
        )
    }

    // MARK: A GET with a body

    /// One rule on every transport: a GET with a body fails before sending, saying so, over
    /// URLSession and over Baton's own transport alike (which could send one); nothing reaches
    /// the server.
    func test_aGETWithABody_isRefusedBeforeSending_onEveryTransport() async throws {
        let client = try makeClient { _ in }
        for transport in [try urlSessionTransport(), HTTP1Transport()] as [any Transport] {
            let over = try Client(configuration: client.configuration, transport: transport)

            let error = await error(of: over.send(Demo.echo(.get, body: .json(["name": "山田"]))))

            let refused = try XCTUnwrap(error as? APIError, "\(String(describing: error))")
            XCTAssertEqual(refused.kind, .invalidRequest)
            XCTAssertEqual(
                refused.description,
                "GET \(origin)/_demo/echo could not be sent: the body is invalid (a GET request carries no body on any transport;"
                    + " send it with POST, or its values as query items).", "\(transport)"
            )
            // Had the refused request gone out, it would have been logged before this later one.
            let marker = serverLog.expectLine(containing: "GET /health")
            _ = try await over.send(Request<Data>(.get, "health")).value
            await fulfillment(of: [marker], timeout: 30)
            XCTAssertFalse(serverLog.all.contains { $0.contains("/_demo/echo") }, "\(serverLog.all)")
        }
    }

    func test_aGETWithAnEmptyBody_goesWithout_overHTTP1() async throws {
        let overHTTP1 = try Client(configuration: client.configuration, transport: HTTP1Transport())
        let echo = try await overHTTP1.send(Demo.echo(.get, body: .data(Data(), contentType: "text/plain"))).value
        XCTAssertEqual(echo.method, "GET")
        XCTAssertEqual(echo.bodyBytes, 0)
        XCTAssertFalse(echo.headers.keys.contains { $0.lowercased() == "content-type" }, "no body, so no type of one")
    }

    func test_aGETWithAnEmptyBody_goesWithout_overURLSession() async throws {
        let overURLSession = try Client(configuration: client.configuration, transport: urlSessionTransport())
        let echo = try await overURLSession.send(Demo.echo(.get, body: .data(Data(), contentType: "text/plain"))).value
        XCTAssertEqual(echo.method, "GET")
        XCTAssertEqual(echo.bodyBytes, 0)
    }

    // MARK: The demo server's counts

    /// `GET /_demo/stats` decodes as `DemoServer.Stats`, the same counts `server.stats` reads
    /// in the process.
    func test_theStats_decodeAsTheirType_andMatchWhatTheServerReads() async throws {
        _ = try await client.send(Request<Order>(.get, "orders/1")).value
        _ = try await client.send(Request<Order>(.get, "orders/2")).value

        let decoded = try await stats()

        // Bytes sent go on growing: the response that carried these counts is counted after them.
        var read = server.stats
        read.bytesSent = decoded.bytesSent
        XCTAssertEqual(decoded, read)
        XCTAssertEqual(decoded.requests["GET /orders/:id"], 2)
        XCTAssertEqual(decoded.logins, 1, "the test case's own login")
        let raw = try await client.send(Request<Data>(.get, "_demo/stats")).value
        let names = try XCTUnwrap(JSONSerialization.jsonObject(with: raw) as? [String: Any]).keys.sorted()
        XCTAssertEqual(names, [
            "bytes_sent", "client_credentials_grants", "code_exchanges", "connections_accepted", "device_authorizations", "device_polls",
            "idempotent_replays", "logins", "malformed", "not_modified", "partial_responses", "photos_stored", "refresh_tokens_rejected",
            "requests", "stream_elements_sent", "streams_started", "tls_handshakes", "tls_server_names", "token_refreshes", "tokens_revoked",
        ], "the documented names")
    }
}
