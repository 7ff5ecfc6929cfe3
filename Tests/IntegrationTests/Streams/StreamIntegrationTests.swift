@testable import BatonSupport
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

/// Streamed calls against DemoServer's stream routes over loopback: elements as the server sends
/// them, cancel reaching the server, reconnection from the last event ID, the element limit,
/// validation before the first element, and one refresh for an expired token.
final class StreamIntegrationTests: IntegrationTestCase {
    struct PhotoState: Decodable, Sendable, Equatable {
        var photoID: Int
        var state: String
        var progress: Int
        enum CodingKeys: String, CodingKey { case photoID = "photo_id", state, progress }
    }

    struct Numbered: Decodable, Sendable { var i: Int }

    private func demoEvents(count: Int, size: Int = 32, extra: [URLQueryItem] = [], fault: String? = nil) -> Request<Numbered> {
        Request(.get, "_demo/events", query: [URLQueryItem(name: "count", value: String(count)), URLQueryItem(name: "size", value: String(size))] + extra,
                headers: fault.map { ["X-Demo-Fault": $0] } ?? [:])
    }

    /// A review of `photos` photos, for its processing states.
    private func review(withPhotos photos: Int) async throws -> Int {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "streamed", rating: 5)).value
        for index in 0..<photos {
            _ = try await client.send(Photos.upload(Data(repeating: UInt8(index), count: 1000), index: index, to: review.id)).value
        }
        return review.id
    }

    private func states(of review: Int, retry: Int = 10, fault: String? = nil) -> Request<PhotoState> {
        Request(.get, "reviews/\(review)/photos/states", query: [URLQueryItem(name: "retry", value: String(retry))],
                headers: fault.map { ["X-Demo-Fault": $0] } ?? [:])
    }

    private var onlyStates: StreamOptions {
        var options = StreamOptions()
        options.eventType = "state"
        return options
    }

    func test_aReviewsPhotoStates_arriveInOrder_overEachTransport() async throws {
        let id = try await review(withPhotos: 2)
        for (name, transport) in [("default", client.transport), ("URLSession", try urlSessionTransport() as any Transport)] {
            let client = try Client(configuration: self.client.configuration, transport: transport)
            let seen = Locked<[PhotoState]>([])
            let end = try await client.events(states(of: id), options: onlyStates) { state in seen.withLock { $0.append(state) } }.value
            let photos = Set(seen.value.map(\.photoID))
            XCTAssertEqual(photos.count, 2, name)
            XCTAssertEqual(seen.value.map(\.state), ["queued", "processing", "ready", "queued", "processing", "ready"], name)
            XCTAssertEqual(end.elements, 6, name)
            XCTAssertEqual(end.lastEventID, "7", "\(name): the done event's id")
        }
    }

    /// The first element is handed on while the server is still holding the rest back.
    func test_theFirstElement_arrivesBeforeTheLastIsSent() async throws {
        let stalled = serverLog.expectLine(containing: "stalled until the client closed the connection")
        var received: [Int] = []
        for try await event in client.events(demoEvents(count: 5, fault: "stall-after-events=1")) {
            received.append(event.i)
            break
        }
        XCTAssertEqual(received, [1])
        await fulfillment(of: [stalled], timeout: 30)
        XCTAssertEqual(server.stats.streamElementsSent, 1, "the server had sent one event when the first was read")
    }

    func test_cancellingAStream_stopsTheServersStream() async throws {
        let closed = serverLog.expectLine(containing: "the client closed the connection")
        let first = expectation(description: "the first event")
        first.assertForOverFulfill = false
        let stream = client.events(demoEvents(count: 1_000_000, fault: "drip=1ms")) { _ in first.fulfill() }
        await fulfillment(of: [first], timeout: 30)
        stream.cancel()
        await fulfillment(of: [closed], timeout: 30)
        XCTAssertLessThan(server.stats.streamElementsSent, 1_000_000)
        let error = await apiErrorOrNil(stream)
        XCTAssertNil(error, "a cancelled stream rejects with CancellationError")
    }

    /// The handler stops the stream after three events: no fourth is handed on, the server sees
    /// the connection closed, the promise fulfils, so the chain goes on, and the end names the
    /// last event handed on.
    func test_aHandlerThatStopsTheStream_endsItThere_fulfilled() async throws {
        let closed = serverLog.expectLine(containing: "the client closed the connection")
        let seen = Locked<[Int]>([])
        // Two seconds of events at most, so that a stream the stop misses fails this test soon.
        let stream = client.events(demoEvents(count: 2_000, fault: "drip=1ms")) { event, stream in
            let count = seen.withLock { seen in
                seen.append(event.i)
                return seen.count
            }
            if count == 3 { stream.stop() }
        }
        let end = try await stream.value
        await fulfillment(of: [closed], timeout: 30)

        XCTAssertEqual(seen.value.count, 3, "\(seen.value)")
        XCTAssertEqual(end.elements, 3)
        XCTAssertTrue(end.wasStopped)
        // The third event's ID, though later ones were read ahead: resuming from it skips none.
        XCTAssertEqual(end.lastEventID, "\(seen.value[2])")
        XCTAssertEqual(server.stats.streamsStarted, 1, "stopped, not reconnected")
        XCTAssertLessThan(server.stats.streamElementsSent, 2_000)
    }

    /// Fifty events at once arrive in a read or two, so the stop after the third leaves many read
    /// ahead: the end names the third, from which a new stream would resume.
    func test_aStoppedStreamsEnd_namesTheLastEventHandedOn_notOneReadAhead() async throws {
        let seen = Locked<[Int]>([])
        let end = try await client.events(demoEvents(count: 50)) { event, stream in
            let count = seen.withLock { seen in
                seen.append(event.i)
                return seen.count
            }
            if count == 3 { stream.stop() }
        }.value
        XCTAssertEqual(end.elements, 3)
        XCTAssertEqual(end.lastEventID, "\(seen.value[2])")
    }

    /// JSON lines stop the same way; a stream the server ends was not stopped.
    func test_linesStoppedByTheHandler_andAStreamTheServerEnds() async throws {
        let stopped = try await client.lines(Request<Order>(.get, "orders.ndjson")) { order, stream in
            if order.id == 2 { stream.stop() }
        }.value
        XCTAssertEqual(stopped.elements, 2)
        XCTAssertTrue(stopped.wasStopped)
        let whole = try await client.lines(Request<Order>(.get, "orders.ndjson")) { _, _ in }.value
        XCTAssertEqual(whole.elements, 8)
        XCTAssertFalse(whole.wasStopped)
    }

    func test_aDroppedStream_reconnects_fromTheLastEventID_once() async throws {
        let id = try await review(withPhotos: 2)
        var options = onlyStates
        options.reconnects = true
        // The server says 10 ms (`retry:`): a stream that waited this long instead would meet the hang guard.
        options.reconnectionDelay = .seconds(3600)
        let seen = Locked<[PhotoState]>([])
        let ended = expectation(description: "the stream ends")
        let outcome = Locked<StreamEnd?>(nil)
        client.events(states(of: id, fault: "drop-after-events=3; times=1"), options: options) { state in
            seen.withLock { $0.append(state) }
        }
        .success { end in
            outcome.withLock { $0 = end }
            ended.fulfill()
        }
        await fulfillment(of: [ended], timeout: 30)
        let end = try XCTUnwrap(outcome.value)
        XCTAssertEqual(seen.value.map(\.state), ["queued", "processing", "ready", "queued", "processing", "ready"], "none twice, none lost")
        XCTAssertEqual(end.reconnections, 1)
        XCTAssertEqual(server.stats.requests["GET /reviews/:review_id/photos/states"], 2)
        XCTAssertTrue(serverLog.all.contains { $0.contains("dropped (X-Demo-Fault)") }, "\(serverLog.all)")
    }

    func test_withoutReconnection_aDroppedStream_failsAfterItsElements() async throws {
        let seen = Locked(0)
        let stream = client.events(demoEvents(count: 10, fault: "drop-after-events=4")) { _ in seen.withLock { $0 += 1 } }
        let error = await apiErrorOrNil(stream)
        XCTAssertEqual(error?.kind, .transport, "\(String(describing: error))")
        XCTAssertTrue(error?.description.hasPrefix("GET \(origin)/_demo/events?count=10&size=32 was cut off after 4 events: the connection was lost") == true,
                      "\(String(describing: error))")
        XCTAssertEqual(seen.value, 4)
    }

    func test_anOverLongElement_failsTheStream() async throws {
        var options = StreamOptions()
        options.maximumElementSize = 64 << 10
        let seen = Locked(0)
        let stream = client.events(demoEvents(count: 3, extra: [URLQueryItem(name: "huge", value: String(1 << 20))]), options: options) { _ in
            seen.withLock { $0 += 1 }
        }
        let error = await apiErrorOrNil(stream)
        XCTAssertEqual(error?.kind, .elementTooLarge)
        XCTAssertEqual(error?.description, "GET \(origin)/_demo/events?count=3&size=32&huge=1048576 sent an event larger than the stream's maximumElementSize of 64 KiB; the stream was stopped.")
        XCTAssertEqual(seen.value, 1, "the event before it")
    }

    func test_anErrorStatus_andAWrongMediaType_failBeforeAnyElement() async throws {
        let seen = Locked(0)
        let failed = await apiErrorOrNil(client.events(demoEvents(count: 3, fault: "status=500")) { _ in seen.withLock { $0 += 1 } })
        XCTAssertEqual(failed?.statusCode, 500)
        let html = await apiErrorOrNil(client.events(demoEvents(count: 3, fault: "content-type=text/html")) { _ in seen.withLock { $0 += 1 } })
        XCTAssertEqual(html?.kind, .unacceptableContentType)
        XCTAssertTrue(html?.description.contains("body starts with") == true, "\(String(describing: html))")
        XCTAssertEqual(seen.value, 0)
    }

    func test_anExpiredToken_isRefreshedOnce_beforeTheFirstElement() async throws {
        let authenticator = try Authenticator(tokenURL: server.baseURL.appending(path: "tokens")) { configuration in
            configuration.fields = TokenResponseFields(accessToken: "token")
        }
        _ = try await authenticator.logIn(username: "demo", password: "demo").value
        let client = try makeClient(authorized: false) { $0.interceptors = [authenticator] }
        let id = try await review(withPhotos: 1)
        server.expireAccessTokens()
        let refreshesBefore = server.stats.tokenRefreshes
        var received: [String] = []
        for try await state in client.events(states(of: id), options: onlyStates) { received.append(state.state) }
        XCTAssertEqual(received, ["queued", "processing", "ready"])
        XCTAssertEqual(server.stats.tokenRefreshes - refreshesBefore, 1)
    }

    func test_orders_asJSONLines_matchTheOrders() async throws {
        var orders: [Order] = []
        for try await order in client.lines(Request<Order>(.get, "orders.ndjson")) { orders.append(order) }
        XCTAssertEqual(orders.count, 8)
        let first = try await client.send(Request<Order>(.get, "orders/1")).value
        XCTAssertEqual(orders.first, first)
    }

    func test_aLineThatDoesNotDecode_failsWithItsNumber_orIsSkipped() async throws {
        struct Named: Decodable, Sendable { var name: String }
        let lines = Request<Named>(.get, "_demo/lines", query: [URLQueryItem(name: "count", value: "3")])
        let error = await apiErrorOrNil(client.lines(lines) { _ in })
        XCTAssertEqual(error?.kind, .decodingFailed)
        XCTAssertTrue(error?.description.contains("line 1: key \"name\" is missing") == true, "\(String(describing: error))")

        var options = StreamOptions()
        options.skipsUndecodableElements = true
        let end = try await client.lines(lines, options: options) { _ in }.value
        XCTAssertEqual(end.skipped, 3)
        XCTAssertEqual(end.elements, 0)
    }

    /// The first element that does not decode fails the stream, and is the one named, however
    /// the elements and the drains that hand them on fall.
    func test_aDecodingFailure_namesTheFirstElement_everyTime() async throws {
        struct Named: Decodable, Sendable { var name: String }
        for _ in 0..<20 {
            let request = Request<Named>(.get, "_demo/events", query: [URLQueryItem(name: "count", value: "10")])
            let error = await apiErrorOrNil(client.events(request) { _ in })
            XCTAssertTrue(error?.description.contains("event 1: key \"name\" is missing") == true, "\(String(describing: error))")
        }
    }

    func test_reconnecting_toDemoEvents_resumesAfterTheLastID() async throws {
        var options = StreamOptions()
        options.reconnects = true
        options.reconnectionDelay = .milliseconds(10)
        let seen = Locked<[Int]>([])
        let end = try await client.events(demoEvents(count: 10, fault: "drop-after-events=4; times=1"),
                                          options: options) { event in seen.withLock { $0.append(event.i) } }.value
        XCTAssertEqual(seen.value, Array(1...10))
        XCTAssertEqual(end.reconnections, 1)
    }

    /// The APIError a stream failed with; `nil` for a success or another error.
    private func apiErrorOrNil(_ promise: Promise<StreamEnd>) async -> APIError? {
        do {
            _ = try await promise.value
            return nil
        } catch {
            return error as? APIError
        }
    }
}
