@testable import BatonPromise
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// What a server that misbehaves on purpose gets from Baton: a settled promise with a clear error,
/// never a hang, a crash or a leaked secret.
final class HostileServerTests: IntegrationTestCase {
    /// The error `promise` settles with. Waiting is bounded (a 30 s hang guard, against responses
    /// that take milliseconds), so a promise that never settles fails the test instead of hanging
    /// the suite.
    private func settledError<T>(_ promise: Promise<T>, file: StaticString = #filePath, line: UInt = #line) async -> APIError? {
        let settled = expectation(description: "the call settled")
        let outcome = Recorder<Result<T, any Error>>()
        promise.then { result in
            outcome.append(result)
            settled.fulfill()
        }
        await fulfillment(of: [settled], timeout: 30)
        promise.cancel()
        guard case .failure(let error)? = outcome.events.first else {
            XCTFail("expected a failure, got \(String(describing: outcome.events.first))", file: file, line: line)
            return nil
        }
        return error as? APIError
    }

    // MARK: Authentication challenges

    /// With no handler for challenges, FoundationNetworking left a 401 carrying
    /// `WWW-Authenticate: Basic` pending forever. Baton sends credentials itself (adapters), so
    /// every challenge is answered with none and the 401 completes the call.
    func test_401WithAChallenge_completesTheCall_forEverySchemeOnGETAndPOST() async throws {
        for (transport, client) in try clientsOverEachTransport({ $0.retryPolicy = nil }) {
            for scheme in ["Basic", "Digest", "Negotiate", "NTLM", "Bearer"] {
                let fault = "status=401;challenge=\(scheme)"
                let get = await settledError(client.send(GetOrder(id: 1, fault: fault)))
                XCTAssertEqual(get?.statusCode, 401, "\(transport): GET challenged with \(scheme): \(String(describing: get))")

                let post = await settledError(client.send(Reviews.post(facilityID: 1, content: "良い", rating: 5, headers: ["X-Demo-Fault": fault])))
                XCTAssertEqual(post?.statusCode, 401, "\(transport): POST challenged with \(scheme)")
            }
        }
    }

    /// A client made as `configure` says over the default transport, and the same over
    /// `URLSessionTransport`: what the client promises holds whichever carries its requests.
    private func clientsOverEachTransport(_ configure: (inout Client.Configuration) -> Void) throws -> [(String, Client)] {
        let client = try makeClient(configure: configure)
        return [("default transport", client), ("URLSessionTransport", try Client(configuration: client.configuration, transport: urlSessionTransport()))]
    }

    // MARK: The overall deadline

    /// The idle timeout restarts with every byte, so a slow server could hold a call as long as it
    /// liked; the deadline bounds the whole call.
    func test_deadline_failsACallTheServerHoldsBack_andSaysSo() async throws {
        let client = try makeClient { $0.retryPolicy = nil; $0.deadline = .milliseconds(500) }

        // Held 300 s: only the deadline can end the call within the test.
        let error = await settledError(client.send(GetOrder(id: 1, fault: "delay=300s")))

        XCTAssertEqual(error?.kind, .deadlineExceeded)
        XCTAssertEqual(error?.deadline, .milliseconds(500))
        XCTAssertEqual(error?.description, "GET \(origin)/orders/1 did not finish within its deadline of 0.5 seconds; the request was cancelled.")
    }

    func test_deadline_endsAWaitBeforeARetry() async throws {
        let client = try makeClient { $0.retryPolicy = .default; $0.deadline = .milliseconds(500) }

        let error = await settledError(client.send(GetOrder(id: 1, fault: "status=503;retry-after=30")))

        XCTAssertEqual(error?.kind, .deadlineExceeded)
        let requests = try? await requestCount("GET /orders/:id")
        XCTAssertEqual(requests, 1, "no second attempt after the deadline")
    }

    func test_deadline_doesNotTouchACallThatFinishesInTime() async throws {
        let client = try makeClient { $0.deadline = .seconds(30) }

        let order = try await client.send(GetOrder(id: 1)).value

        XCTAssertEqual(order, Fixtures.order(1))
    }

    // MARK: Bounded memory

    /// A `GET /health` answered with a body of `size` bytes (`X-Demo-Fault: body-bytes`), whose
    /// progress follows the bytes as they arrive.
    private func oversized(_ size: Int, gzip: Bool = false) -> Request<Data> {
        var request = Request<Data>(.get, "health", headers: ["X-Demo-Fault": "body-bytes=\(size)" + (gzip ? ";gzip" : "")])
        request.tracksDownloadProgress = true
        return request
    }

    /// The largest count of bytes received that `promise` reported.
    private func mostReported<T>(by promise: Promise<T>) -> Counter {
        let most = Counter()
        promise.progress { most.raise(to: Int($0.completed)) }
        return most
    }

    /// A body declared longer than the limit is refused at its first bytes, not read whole.
    func test_responseDeclaredOverTheLimit_failsAsResponseTooLarge_havingKeptNoMoreThanTheLimit() async throws {
        for (transport, client) in try clientsOverEachTransport({ $0.maximumResponseSize = 1 << 20 }) {
            let call = client.send(oversized(8 << 20))
            let most = mostReported(by: call)

            let error = await settledError(call)

            XCTAssertEqual(error?.kind, .responseTooLarge, transport)
            XCTAssertEqual(error?.maximumResponseSize, 1 << 20, transport)
            XCTAssertEqual(error?.description, "GET \(origin)/health returned a body larger than the client's maximumResponseSize of 1 MiB; the transfer was stopped.")
            XCTAssertEqual(most.value, 0, "\(transport): a declared length over the limit stops the transfer before any byte is kept")
        }
    }

    /// 4 MiB squeezed by gzip into about 25 KiB, under a limit of 256 KiB: only counting the
    /// inflated bytes as they arrive catches it.
    func test_gzipBomb_isStoppedAtTheLimitOfInflatedBytes() async throws {
        for (transport, client) in try clientsOverEachTransport({ $0.maximumResponseSize = 256 << 10 }) {
            let call = client.send(oversized(4 << 20, gzip: true))
            let most = mostReported(by: call)

            let error = await settledError(call)

            XCTAssertEqual(error?.kind, .responseTooLarge, transport)
            XCTAssertLessThanOrEqual(most.value, 256 << 10, transport)
            XCTAssertGreaterThan(most.value, 0, "\(transport): the compressed body declared a small length, so inflated bytes were counted")
        }
    }

    func test_responseOfExactlyTheLimit_arrivesWhole() async throws {
        let client = try makeClient { $0.maximumResponseSize = 1 << 20 }

        let body = try await client.send(oversized(1 << 20)).value

        XCTAssertEqual(body.count, 1 << 20)
    }

    /// A server that sends too much sends too much again: the default policy does not retry.
    func test_responseTooLarge_isNotRetried() async throws {
        let client = try makeClient { $0.maximumResponseSize = 1 << 20; $0.retryPolicy = .default }

        let error = await settledError(client.send(GetOrder(id: 1, fault: "body-bytes=2097152")))

        XCTAssertEqual(error?.kind, .responseTooLarge)
        let requests = try await requestCount("GET /orders/:id")
        XCTAssertEqual(requests, 1)
    }

    // MARK: Secrets in logs and errors

    /// Every way a secret reached a log line or an error before: query fields under other
    /// spellings, headers such as `X-Auth-Token`, a password in the base URL, camelCase JSON
    /// fields, and secrets the server echoed back into a body that fails to decode. The whole
    /// log, at its most verbose, and every error's sentence hold none of the marked values.
    func test_verboseLogAndErrors_holdNoMarkedSecret() async throws {
        let lines = Recorder<String>()
        var base = URLComponents(url: server.baseURL, resolvingAgainstBaseURL: false)!
        base.user = "demo"
        base.password = "MARK-basepw"
        let client = try Client(baseURL: base.url!) { configuration in
            configuration.retryPolicy = nil
            configuration.headers = ["X-Auth-Token": "MARK-xauth", "Cookie": "s=MARK-cookie", "X-Api-Key": "MARK-apikey"]
            configuration.adapters = [BearerTokenAdapter { "MARK-bearer" }]
            configuration.monitors = [LoggingMonitor(showsAttempts: true) { lines.append($0) }]
        }
        struct NotAnEcho: Decodable, Sendable { var missing: Int }
        let query = [
            URLQueryItem(name: "access_token", value: "MARK-q1"), URLQueryItem(name: "X-Amz-Signature", value: "MARK-q2"),
            URLQueryItem(name: "apiKey", value: "MARK-q3"), URLQueryItem(name: "code", value: "MARK-q4"),
        ]
        let body = #"{"refreshToken":"MARK-b1","clientSecret":"MARK-b2","new_password":"MARK-b3","code_verifier":"MARK-b4","id_token":"MARK-b5"}"#
        var errors: [String] = []
        // The echo answers with every header it received, secrets included: a body that does
        // not decode shows its start in the error.
        let calls: [Request<NotAnEcho>] = [
            Request(.get, "_demo/echo", query: query),
            Request(.post, "_demo/echo", query: query, body: .data(Data(body.utf8), contentType: "application/json")),
            Request(.post, "_demo/echo", body: .form([("client_assertion", "MARK-f1"), ("password", "MARK-f2")])),
        ]
        for call in calls {
            do {
                _ = try await client.send(call).value
                XCTFail("the echo does not decode as NotAnEcho")
            } catch {
                errors.append("\(error)")
                errors.append((error as? APIError).map { "\($0.response as Any)" } ?? "")
            }
        }

        let everything = lines.events + errors
        XCTAssertGreaterThanOrEqual(lines.count, 9, "started, attempt and failed for each call: \(lines.events)")
        for text in everything {
            XCTAssertFalse(text.contains("MARK-"), "a secret leaked: \(text)")
        }
        XCTAssertTrue(errors[0].contains("does not decode as NotAnEcho"), errors[0])
    }
}
