@testable import Baton
import BatonLocking
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// A Sources bug (not committed): a GET sent from a handler of the first call's settlement
/// joins the transfer that already settled. Copy into Tests/ClientTests to run.
final class RequestMergingBugTests: XCTestCase {
    private let ok = HTTPResponse.json(Fixtures.orderJSON)

    private func mergingClient(_ transport: any Transport) throws -> Client {
        try makeClient(transport: transport) { $0.mergesIdenticalRequests = true }
    }

    func test_aGETSentFromTheFirstCallsSuccessHandler_sendsAnew() async throws {
        let transport = ManualTransport()
        let client = try mergingClient(transport)
        let second = Locked<Promise<Order>?>(nil)
        let first = client.send(Request<Order>(.get, "orders/1"))
        let handled = first.success { _ in second.withLock { $0 = client.send(Request<Order>(.get, "orders/1")) } }

        transport.exchange(0).fulfill(ok)
        _ = try await handled.value
        let count = transport.count
        if count > 1 { transport.exchange(1).fulfill(.json(#"{"id":2,"name":"b","ordersum":1,"subtotal":1,"bikou":""}"#)) }
        let order = try await XCTUnwrap(second.withLock { $0 }).value
        XCTAssertEqual(count, 2, "the first call had settled: the second must not join its transfer")
        XCTAssertEqual(order.id, 2)
    }
}
