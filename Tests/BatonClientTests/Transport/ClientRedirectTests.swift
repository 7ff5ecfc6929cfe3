import BatonSupport
@testable import BatonPromise
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// How the client walks a chain of redirects, whatever its transport: how far, and when it stops.
final class ClientRedirectTests: XCTestCase {
    private let body = Data(#"{"content":"loop"}"#.utf8)

    /// A server that redirects a POST to itself forever gets the body at most
    /// `RedirectPolicy.maximumRedirects` times more, then the call fails.
    func test_aRedirectLoopWithABody_stopsAfterTheMaximum_asTooManyRedirects() async throws {
        let transport = StubTransport { _, _ in HTTPResponse(statusCode: 307, headers: ["Location": "http://h/loop"]) }
        let client = try makeClient(transport: transport)

        let error = await awaitError(client.send(Request<Data>(.post, "loop", body: .data(body, contentType: "application/json")))) as? APIError

        XCTAssertEqual(error?.kind, .transport)
        XCTAssertEqual(error?.urlError?.code, .httpTooManyRedirects)
        XCTAssertEqual(transport.requests.count, RedirectPolicy.maximumRedirects + 1)
        XCTAssertTrue(transport.requests.allSatisfy { $0.httpBody == body }, "every hop of a 307 re-sends the body")
    }

    /// A cancel that lands while the redirect is being delivered to the call: the transport's
    /// first handler (added before the client's) cancels the call, so the client's handler then
    /// sees a redirect to follow and a call already cancelled. Nothing more goes on the wire.
    func test_cancelBetweenTwoHops_sendsNoFurtherRequest() throws {
        let transport = HookedTransport()
        let client = try makeClient(transport: transport)
        let call = client.send(Request<Data>(.post, "moved", body: .data(body, contentType: "application/json")))
        transport.beforeDelivering { call.cancel() }

        transport.responseFirst(HTTPResponse(statusCode: 307, headers: ["Location": "http://h/elsewhere"]))

        XCTAssertEqual(call.state, .cancelled)
        XCTAssertEqual(transport.sent, 1)
    }
}

/// A transport that runs a hook just before the client sees its response.
private final class HookedTransport: Transport {
    private let state = Locked<(sent: Int, fulfil: (@Sendable (HTTPResponse) -> Void)?, hook: (@Sendable () -> Void)?)>((0, nil, nil))

    var sent: Int { state.value.sent }

    func beforeDelivering(_ hook: @escaping @Sendable () -> Void) {
        state.withLock { $0.hook = hook }
    }

    func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
        let promise = Promise<HTTPResponse> { _, fulfill, _, _ in
            state.withLock { state in
                state.sent += 1
                if state.fulfil == nil { state.fulfil = fulfill }
            }
        }
        // Added before the client subscribes, so it runs first.
        promise.then { [state] _ in state.value.hook?() }
        return promise
    }

    func responseFirst(_ response: HTTPResponse) {
        state.value.fulfil?(response)
    }
}
