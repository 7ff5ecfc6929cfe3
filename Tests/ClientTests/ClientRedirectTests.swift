import Baton
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
    func test_aRedirectLoopWithABody_stopsAfterTheMaximum_asTooManyRedirects() async {
        let transport = StubTransport { _, _ in HTTPResponse(statusCode: 307, headers: ["Location": "http://h/loop"]) }
        let client = makeClient(transport: transport)

        let error = await awaitError(client.send(Request<Data>(.post, "loop", body: .data(body, contentType: "application/json")))) as? APIError

        XCTAssertEqual(error?.kind, .transport)
        XCTAssertEqual(error?.urlError?.code, .httpTooManyRedirects)
        XCTAssertEqual(transport.requests.count, RedirectPolicy.maximumRedirects + 1)
        XCTAssertTrue(transport.requests.allSatisfy { $0.httpBody == body }, "every hop of a 307 re-sends the body")
    }

    /// A cancel that lands while a redirect is on its way back: the redirect arrives, but
    /// nothing more goes on the wire.
    func test_cancelBetweenTwoHops_sendsNoFurtherRequest() {
        let transport = ManualTransport()
        let client = makeClient(transport: transport)
        let call = client.send(Request<Data>(.post, "moved", body: .data(body, contentType: "application/json")))
        XCTAssertEqual(transport.count, 1)

        call.cancel()
        transport.exchange(0).fulfill(HTTPResponse(statusCode: 307, headers: ["Location": "http://h/elsewhere"]))

        XCTAssertEqual(call.state, .cancelled)
        XCTAssertEqual(transport.count, 1)
    }
}
