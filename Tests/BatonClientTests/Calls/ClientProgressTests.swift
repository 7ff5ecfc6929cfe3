@testable import BatonPromise
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// The call's promise reports the transport's progress; a retry starts again from zero (the
/// first attempt reports nothing before the transport does).
final class ProgressClientTests: XCTestCase {

    func test_transportProgress_reachesTheCallsPromise() async throws {
        let sent = expectation(description: "the transport received the request")
        let transport = ManualTransport { _ in sent.fulfill() }
        let seen = Recorder<PromiseProgress>()
        let promise = try makeClient(transport: transport).send(Request<Order>(.get, "orders/1"))
        promise.progress { seen.append($0) }
        await fulfillment(of: [sent], timeout: 30)
        transport.exchange(0).progress(PromiseProgress(completed: 40, total: 100))
        transport.exchange(0).progress(PromiseProgress(completed: 100, total: 100))
        transport.exchange(0).fulfill(.json(Fixtures.orderJSON))
        _ = try await promise.value
        XCTAssertEqual(seen.events, [PromiseProgress(completed: 40, total: 100), PromiseProgress(completed: 100, total: 100)])
    }

    /// A transfer over before the call subscribes to it (a fast loopback response, a busy machine)
    /// still has its progress reach the call: here the transport settles inside `send`.
    func test_aTransferThatEndsBeforeTheCallSubscribes_stillReportsItsProgress() async throws {
        struct FinishedTransport: Transport {
            func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
                let response = HTTPResponse.json(Fixtures.orderJSON)
                let length = Int64(response.body.count)
                return Promise { progress, fulfill, _, _ in
                    progress(PromiseProgress(completed: length, total: length, kind: .bytesReceived))
                    fulfill(response)
                }
            }
        }
        let seen = Recorder<PromiseProgress>()
        let length = Int64(HTTPResponse.json(Fixtures.orderJSON).body.count)

        _ = try await makeClient(transport: FinishedTransport()).send(Request<Order>(.get, "orders/1"))
            .progress { seen.append($0) }
            .value

        XCTAssertEqual(seen.events, [PromiseProgress(completed: length, total: length, kind: .bytesReceived)])
    }

    /// The same with monitors: the call's report to them observes its end from the start, and
    /// must not take the progress its caller's handler, added after `send` returns, is owed.
    func test_aTransferThatEndsBeforeTheCallerSubscribes_stillReportsItsProgress_withMonitors() async throws {
        struct FinishedTransport: Transport {
            func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
                Promise { progress, fulfill, _, _ in
                    progress(PromiseProgress(completed: 60, total: 60, kind: .bytesReceived))
                    fulfill(.json(Fixtures.orderJSON))
                }
            }
        }
        final class Silent: ClientMonitor {
            func receive(_ event: ClientEvent) {}
        }
        let seen = Recorder<PromiseProgress>()
        let client = try makeClient(transport: FinishedTransport()) { $0.monitors = [Silent()] }

        let call = client.send(Request<Order>(.get, "orders/1"))
        XCTAssertEqual(call.state, .fulfilled, "the transport settles inside send, so the call ends before any handler of the caller's")
        _ = try await call.progress { seen.append($0) }.value

        XCTAssertEqual(seen.events, [PromiseProgress(completed: 60, total: 60, kind: .bytesReceived)])
    }

    /// The progress `request` reports through a first attempt that reports `first` and fails
    /// with 503, up to the second attempt's arrival at the transport. The retry reports zero
    /// before it reaches the transport, so the list is complete as soon as the second request
    /// arrives.
    private func progressAcrossARetry(of request: Request<Order>, first: PromiseProgress) async throws -> [PromiseProgress] {
        let firstSent = expectation(description: "first attempt sent")
        let secondSent = expectation(description: "second attempt sent")
        let transport = ManualTransport { count in
            if count == 1 { firstSent.fulfill() }
            if count == 2 { secondSent.fulfill() }
        }
        let seen = Recorder<PromiseProgress>()
        let promise = try makeClient(transport: transport, retriers: [fastRetryPolicy]).send(request)
        promise.progress { seen.append($0) }
        await fulfillment(of: [firstSent], timeout: 30)
        transport.exchange(0).progress(first)
        transport.exchange(0).fulfill(HTTPResponse(statusCode: 503))
        await fulfillment(of: [secondSent], timeout: 30)
        let events = seen.events
        transport.exchange(1).fulfill(.json(Fixtures.orderJSON))
        _ = try await promise.value
        return events
    }

    func test_eachAttempt_startsProgressAgainFromZero() async throws {
        let first = PromiseProgress(completed: 40, total: 100, kind: .bytesReceived)
        let seen = try await progressAcrossARetry(of: Request<Order>(.get, "orders/1"), first: first)
        XCTAssertEqual(seen, [first, PromiseProgress(completed: 0, kind: .bytesReceived)])
    }

    func test_aRetriedUpload_startsAgainFromZeroBytesSentOfItsBody() async throws {
        let upload = Request<Order>(.put, "orders/1", body: .data(Data(repeating: 7, count: 100), contentType: "image/jpeg"))
        let first = PromiseProgress(completed: 60, total: 100, kind: .bytesSent)
        let seen = try await progressAcrossARetry(of: upload, first: first)
        XCTAssertEqual(seen, [first, PromiseProgress(completed: 0, total: 100, kind: .bytesSent)])
    }

    func test_endpointsChoiceOfDownloadProgress_reachesTheTransport() async throws {
        let transport = ManualTransport()
        let client = try makeClient(transport: transport)
        var tracked = Request<Data>(.get, "photos/1")
        tracked.tracksDownloadProgress = true
        let calls = [client.send(Request<Data>(.get, "photos/1")), client.send(tracked)]
        XCTAssertEqual([transport.exchange(0).options.tracksDownloadProgress, transport.exchange(1).options.tracksDownloadProgress], [false, true])
        calls.forEach { $0.cancel() }
    }
}
