import BatonSupport
@testable import BatonPromise
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `mergesIdenticalRequests` over a transport the test answers by hand: identical GETs in flight
/// go out once and each caller decodes the one response; what is not merged; cancelling some or
/// all callers; and a GET sent after the first settled going out anew.
final class RequestMergingTests: XCTestCase {

    /// An order GET that counts its decodes.
    private struct CountedOrder: Endpoint {
        typealias Response = Order
        let decodes: Counter
        var headers: [String: String] = [:]
        var path: EndpointPath { "orders/1" }
        func decode(_ response: HTTPResponse, with decoder: JSONDecoder) throws -> Order {
            decodes.increment()
            return try decoder.decode(Order.self, from: response.body)
        }
    }

    private let ok = HTTPResponse.json(Fixtures.orderJSON)

    private func mergingClient(_ transport: any Transport, merges: Bool = true) throws -> Client {
        try makeClient(transport: transport) { $0.mergesIdenticalRequests = merges }
    }

    // MARK: Merged

    func test_identicalGETsAtOnce_reachTheTransportOnce_andEachDecodesTheAnswer() async throws {
        let transport = ManualTransport()
        let client = try mergingClient(transport)
        let decodes = Counter()
        let calls = (0..<3).map { _ in client.send(CountedOrder(decodes: decodes)) }
        XCTAssertEqual(transport.count, 1)

        transport.exchange(0).fulfill(ok)
        for call in calls {
            let order = try await call.value
            XCTAssertEqual(order, Fixtures.order)
        }
        XCTAssertEqual(decodes.value, 3)
        XCTAssertEqual(transport.count, 1)
    }

    func test_mergedGETs_allFailWithTheOneErrorAnswer() async throws {
        let transport = ManualTransport()
        let client = try mergingClient(transport)
        let calls = (0..<2).map { _ in client.send(Request<Order>(.get, "orders/1")) }
        XCTAssertEqual(transport.count, 1)

        transport.exchange(0).fulfill(HTTPResponse(statusCode: 404))
        for call in calls {
            let error = await awaitError(call)
            XCTAssertEqual((error as? APIError)?.statusCode, 404)
        }
    }

    func test_mergedGETs_allFailWithTheTransportsError() async throws {
        let transport = ManualTransport()
        let client = try mergingClient(transport)
        let calls = (0..<2).map { _ in client.send(Request<Order>(.get, "orders/1")) }
        XCTAssertEqual(transport.count, 1)

        transport.exchange(0).reject(URLError(.cannotConnectToHost))
        for call in calls {
            let error = await awaitError(call)
            XCTAssertEqual((error as? APIError)?.urlError?.code, .cannotConnectToHost)
        }
    }

    // MARK: Not merged

    func test_GETsDifferingInAuthorization_areNotMerged() async throws {
        let transport = ManualTransport()
        let client = try mergingClient(transport)
        let decodes = Counter()
        let alice = client.send(CountedOrder(decodes: decodes, headers: ["Authorization": "Bearer alice"]))
        let bob = client.send(CountedOrder(decodes: decodes, headers: ["Authorization": "Bearer bob"]))
        XCTAssertEqual(transport.count, 2)
        XCTAssertEqual(transport.exchange(0).request.value(forHTTPHeaderField: "Authorization"), "Bearer alice")
        XCTAssertEqual(transport.exchange(1).request.value(forHTTPHeaderField: "Authorization"), "Bearer bob")

        transport.exchange(0).fulfill(ok)
        transport.exchange(1).fulfill(ok)
        _ = try await alice.value
        _ = try await bob.value
    }

    func test_GETsToDifferentURLs_areNotMerged() throws {
        let transport = ManualTransport()
        let client = try mergingClient(transport)
        let first = client.send(Request<Order>(.get, "orders/1"))
        let second = client.send(Request<Order>(.get, "orders/1", query: [URLQueryItem(name: "v", value: "2")]))
        XCTAssertEqual(transport.count, 2)
        first.cancel()
        second.cancel()
    }

    func test_identicalPOSTs_areNeverMerged() async throws {
        let transport = ManualTransport()
        let client = try mergingClient(transport)
        let body = RequestBody.data(Data("{}".utf8), contentType: "application/json")
        let first = client.send(Request<Order>(.post, "orders", body: body))
        let second = client.send(Request<Order>(.post, "orders", body: body))
        let bodiless = client.send(Request<Order>(.post, "orders"))
        let bodilessAgain = client.send(Request<Order>(.post, "orders"))
        XCTAssertEqual(transport.count, 4)

        for index in 0..<4 { transport.exchange(index).fulfill(ok) }
        for call in [first, second, bodiless, bodilessAgain] { _ = try await call.value }
    }

    func test_withTheOptionOff_eachGETIsSent() async throws {
        let transport = ManualTransport()
        let client = try mergingClient(transport, merges: false)
        let calls = (0..<3).map { _ in client.send(Request<Order>(.get, "orders/1")) }
        XCTAssertEqual(transport.count, 3)

        for index in 0..<3 { transport.exchange(index).fulfill(ok) }
        for call in calls { _ = try await call.value }
    }

    func test_theOptionIsOffByDefault() {
        XCTAssertFalse(Client.Configuration(baseURL: URL(string: "http://h/")!).mergesIdenticalRequests)
    }

    // MARK: Cancelling

    func test_oneCallerCancelling_leavesTheOthersAnswered() async throws {
        let transport = ManualTransport()
        let client = try mergingClient(transport)
        let leaving = client.send(Request<Order>(.get, "orders/1"))
        let staying = client.send(Request<Order>(.get, "orders/1"))
        let alsoStaying = client.send(Request<Order>(.get, "orders/1"))
        XCTAssertEqual(transport.count, 1)

        leaving.cancel()
        XCTAssertEqual(leaving.state, .cancelled)
        XCTAssertEqual(transport.exchange(0).cancellations.value, 0, "the transfer goes on for the others")

        transport.exchange(0).fulfill(ok)
        let first = try await staying.value
        let second = try await alsoStaying.value
        XCTAssertEqual(first, Fixtures.order)
        XCTAssertEqual(second, Fixtures.order)
    }

    func test_everyCallerCancelling_cancelsTheTransfer() async throws {
        let transport = ManualTransport()
        let client = try mergingClient(transport)
        let calls = (0..<3).map { _ in client.send(Request<Order>(.get, "orders/1")) }
        XCTAssertEqual(transport.count, 1)

        calls[0].cancel()
        calls[1].cancel()
        XCTAssertEqual(transport.exchange(0).cancellations.value, 0)
        calls[2].cancel()
        XCTAssertEqual(transport.exchange(0).cancellations.value, 1)
        for call in calls {
            let error = await awaitError(call)
            XCTAssertTrue(error is CancellationError, "got \(String(describing: error))")
        }
    }

    func test_aGETAfterEveryCallerCancelled_sendsAnew() async throws {
        let transport = ManualTransport()
        let client = try mergingClient(transport)
        let gone = client.send(Request<Order>(.get, "orders/1"))
        gone.cancel()
        XCTAssertEqual(transport.exchange(0).cancellations.value, 1)

        let next = client.send(Request<Order>(.get, "orders/1"))
        XCTAssertEqual(transport.count, 2)
        transport.exchange(1).fulfill(ok)
        let order = try await next.value
        XCTAssertEqual(order, Fixtures.order)
    }

    // MARK: After the transfer

    func test_aGETSentAfterTheFirstSettled_sendsAnew() async throws {
        let transport = ManualTransport()
        let client = try mergingClient(transport)
        let first = client.send(Request<Order>(.get, "orders/1"))
        transport.exchange(0).fulfill(ok)
        _ = try await first.value

        let second = client.send(Request<Order>(.get, "orders/1"))
        XCTAssertEqual(transport.count, 2)
        transport.exchange(1).fulfill(.json(#"{"id":2,"name":"b","ordersum":1,"subtotal":1,"bikou":""}"#))
        let order = try await second.value
        XCTAssertEqual(order.id, 2, "the new answer, not the first one's")
    }

    /// A GET sent from a handler of the first call's success, which runs as the transfer settles,
    /// is not joined to that settled transfer: it goes out anew.
    func test_aGETSentFromTheFirstCallsSuccessHandler_sendsAnew() async throws {
        let transport = ManualTransport()
        let client = try mergingClient(transport)
        let second = Locked<Promise<Order>?>(nil)
        let first = client.send(Request<Order>(.get, "orders/1"))
        let handled = first.success { _ in second.withLock { $0 = client.send(Request<Order>(.get, "orders/1")) } }

        transport.exchange(0).fulfill(ok)
        _ = try await handled.value
        let count = transport.count
        // Answered only if it went out, so that a joined call fails the test rather than hangs it.
        if count > 1 { transport.exchange(1).fulfill(.json(#"{"id":2,"name":"b","ordersum":1,"subtotal":1,"bikou":""}"#)) }
        let order = try await XCTUnwrap(second.withLock { $0 }).value
        XCTAssertEqual(count, 2, "the first call had settled: the second must not join its transfer")
        XCTAssertEqual(order.id, 2)
    }
}
