@testable import BatonClient
import BatonSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// Response hooks and revalidation: ResponseHook's contract is "once per successful call".
final class RevalidationHookTests: XCTestCase {
    private struct StatusHook: ResponseHook {
        let seen: Recorder<Int>
        func decoded(_ value: any Sendable, response: HTTPResponse, request: RequestSummary) throws {
            seen.append(response.statusCode)
        }
    }

    func test_aRevalidatedCall_runsTheResponseHooks_likeAnyOtherSuccessfulCall() async throws {
        let seen = Recorder<Int>()
        let transport = sequencedStub([
            .json(#"{"id": "n1", "text": "hello"}"#, headers: ["ETag": "\"v1\""]), HTTPResponse(statusCode: 304),
        ])
        let client = try makeClient(transport: transport) { configuration in
            configuration.store = InMemoryEntityStore()
            configuration.revalidatesStoredValues = true
            configuration.responseHooks = [StatusHook(seen: seen)]
        }
        _ = try await client.send(Request<Note>(.get, "notes/n1")).value
        let answer = try await client.fetch(Request<Note>(.get, "notes/n1")).value
        XCTAssertTrue(answer.isRevalidated)
        XCTAssertEqual(seen.events, [200, 304], "ResponseHook: once per successful call")
    }
}
