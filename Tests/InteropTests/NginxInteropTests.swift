@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `HTTP1Transport`, and a client over it, against nginx over http, as `.ci/interop` configures
/// it: a connection limit of three requests (`/ka3/`), a one-second idle close (`/idle/`), gzip
/// on JSON and text, a 1 KiB body limit (`/upload/`), and its own ETags. What Baton observes is
/// checked against what nginx logged.
final class NginxInteropTests: XCTestCase {
    private var nginx: URL!
    private var log: NginxAccessLog!
    private var root: URL!
    private var token: String!

    override func setUpWithError() throws {
        nginx = try Interop.nginx()
        log = try Interop.nginxLog()
        root = try Interop.nginxRoot()
        token = Interop.token()
    }

    private func file(_ path: String) throws -> Data {
        try Data(contentsOf: root.appending(path: path))
    }

    // MARK: Keep-alive limits and idle closes

    /// nginx closes each connection after its third request (`keepalive_requests 3`, saying
    /// `Connection: close` in the third response): ten requests in a row all succeed, over four
    /// connections, each opened when nginx had closed the one before.
    func test_tenRequestsInARow_toAThreeRequestConnectionLimit_allSucceed_overFourConnections() async throws {
        let transport = HTTP1Transport()
        let events = ConnectionEvents()
        let expected = try file("ka3/small.txt")

        for index in 1...10 {
            let response = try await transport.send(nginx.interop("ka3/small.txt", token: token, ["n": "\(index)"]), events: events)
            XCTAssertEqual(response.statusCode, 200, "request \(index)")
            XCTAssertEqual(response.body, expected, "request \(index)")
        }

        XCTAssertEqual(events.count(of: .opened), 4, "\(events.all)")
        XCTAssertEqual(events.count(of: .reused), 6, "\(events.all)")
        XCTAssertEqual(events.all.filter { $0.kind == .closed }.map(\.reason), Array(repeating: "the server asked to close it, or ended its answer by closing it", count: 3))
        let entries = try await log.entries(for: token, count: 10)
        XCTAssertEqual(entries.map(\.connectionRequests), [1, 2, 3, 1, 2, 3, 1, 2, 3, 1], "\(entries)")
        XCTAssertEqual(Set(entries.map(\.connection)).count, 4, "\(entries)")
    }

    /// Thirty calls at once through a client whose transport opens at most four connections to
    /// nginx, which closes each after three requests: every call succeeds, the connections closed
    /// under them replaced transparently, never more than four open at once.
    func test_thirtyCallsAtOnce_toAThreeRequestConnectionLimit_allSucceed_withinFourConnections() async throws {
        var settings = HTTP1Transport.Configuration()
        settings.maximumConnectionsPerOrigin = 4
        let recorder = CallEvents()
        let client = try Client(baseURL: nginx, transport: HTTP1Transport(configuration: settings)) {
            $0.retryPolicy = nil
            $0.monitors = [recorder]
        }
        let expected = try String(contentsOf: root.appending(path: "ka3/small.txt"), encoding: .utf8)

        let calls = (1...30).map { index in
            client.send(Request<String>(.get, "ka3/small.txt", query: [URLQueryItem(name: "t", value: token), URLQueryItem(name: "n", value: "\(index)")]))
        }
        for call in calls {
            let text = try await call.value
            XCTAssertEqual(text, expected)
        }

        let entries = try await log.entries(for: token, count: 30)
        XCTAssertEqual(entries.count, 30, "each call sent once: \(entries)")
        XCTAssertTrue(entries.allSatisfy { $0.status == 200 && $0.connectionRequests <= 3 }, "\(entries)")
        XCTAssertGreaterThanOrEqual(Set(entries.map(\.connection)).count, 10, "thirty requests, three a connection")
        XCTAssertLessThanOrEqual(recorder.connections.mostOpenAtOnce, 4, "\(recorder.connections.all)")
    }

    #if os(Linux)
    /// Sends a GET to `/idle/`, where nginx closes a connection idle for a second
    /// (`keepalive_timeout 1s`), and waits until it has: not on the clock, but by watching the
    /// client's socket turn `CLOSE_WAIT` in the kernel's list (nginx's FIN has arrived), for at
    /// most 15 s.
    private func requestAndAwaitNginxsIdleClose(over transport: HTTP1Transport, events: ConnectionEvents) async throws {
        let port = try XCTUnwrap(nginx.port)
        let before = try LoopbackSockets.established(to: port)
        let first = try await transport.send(nginx.interop("idle/small.txt", token: token, ["n": "1"]), events: events)
        XCTAssertEqual(first.statusCode, 200)
        let ours = try LoopbackSockets.established(to: port).subtracting(before)
        XCTAssertEqual(ours.count, 1, "one new connection to nginx: \(ours)")
        let local = try XCTUnwrap(ours.first)
        let closed = try await LoopbackSockets.waitUntil(local: local, connectedTo: port, is: LoopbackSockets.closeWaitState)
        XCTAssertTrue(closed, "nginx closed the idle connection")
    }

    /// Once nginx has closed the idle connection, the next request goes out on a new one and
    /// succeeds; the old one is closed as one the server closed while it idled, seen before the
    /// request went out (it was not sent on it and sent again).
    func test_aRequestAfterNginxClosedTheIdleConnection_goesOnANewOne_andSucceeds() async throws {
        let transport = HTTP1Transport()
        let events = ConnectionEvents()
        try await requestAndAwaitNginxsIdleClose(over: transport, events: events)

        let second = try await transport.send(nginx.interop("idle/small.txt", token: token, ["n": "2"]), events: events)

        XCTAssertEqual(second.statusCode, 200)
        XCTAssertEqual(second.body, try file("idle/small.txt"))
        XCTAssertEqual(events.kinds, [.opened, .closed, .opened], "\(events.all)")
        XCTAssertEqual(events.all[1].reason, "the server closed it while it idled")
        let entries = try await log.entries(for: token, count: 2)
        XCTAssertEqual(entries.map(\.connectionRequests), [1, 1], "\(entries)")
        XCTAssertNotEqual(entries[0].connection, entries[1].connection)
    }

    /// The same for a `POST`, which Baton would not send again by itself had it gone out on the
    /// closed connection: it goes out once, on a new connection, and nginx answers it (405:
    /// nginx serves files, and takes no POST).
    func test_aPOSTAfterNginxClosedTheIdleConnection_goesOutOnceOnANewOne_andGetsNginxsAnswer() async throws {
        let transport = HTTP1Transport()
        let events = ConnectionEvents()
        try await requestAndAwaitNginxsIdleClose(over: transport, events: events)

        let response = try await transport.send(nginx.interop("idle/small.txt", token: token, ["n": "2"]), method: "POST", body: Data("x=1".utf8), events: events)

        XCTAssertEqual(response.statusCode, 405)
        XCTAssertEqual(events.kinds.prefix(3), [.opened, .closed, .opened], "\(events.all)")
        XCTAssertEqual(events.all[1].reason, "the server closed it while it idled")
        let entries = try await log.entries(for: token, count: 2)
        XCTAssertEqual(entries.map(\.method), ["GET", "POST"], "\(entries)")
        XCTAssertEqual(entries.map(\.status), [200, 405], "\(entries)")
    }
    #endif

    // MARK: gzip, chunked

    /// nginx gzips the 2 MiB JSON file on the fly, which it can only send chunked: the body
    /// arrives inflated, byte for byte the file, while nginx logged far fewer bytes sent.
    func test_aLargeJSONFile_gzippedAndChunkedByNginx_arrivesByteExact() async throws {
        let expected = try file("big.json")

        let response = try await HTTP1Transport().send(nginx.interop("big.json", token: token))

        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(response.value(forHeader: "Content-Encoding"), "gzip")
        XCTAssertEqual(response.value(forHeader: "Transfer-Encoding"), "chunked")
        XCTAssertEqual(response.body.count, expected.count)
        XCTAssertEqual(Interop.sha256(response.body), Interop.sha256(expected))
        let entry = try await log.entries(for: token, count: 1)[0]
        XCTAssertFalse(entry.gzipRatio.isEmpty, "nginx gzipped it: \(entry)")
        XCTAssertLessThan(entry.bodyBytesSent, expected.count / 3, "\(entry)")
    }

    struct Items: Decodable, Sendable {
        struct Item: Decodable, Sendable, Equatable {
            var id: Int
            var name: String
            var tags: [String]
        }

        var items: [Item]
    }

    /// The same file through a client, decoded: every item there, the last one whole.
    func test_aLargeJSONFile_gzippedAndChunkedByNginx_decodesThroughTheClient() async throws {
        let client = try Client(baseURL: nginx, transport: HTTP1Transport()) { $0.retryPolicy = nil }

        let list = try await client.send(Request<Items>(.get, "big.json", query: [URLQueryItem(name: "t", value: token)])).value

        XCTAssertEqual(list.items.count, 20_000)
        XCTAssertEqual(list.items.last, Items.Item(id: 19_999, name: "item 19999", tags: ["a\(19_999 % 13)", "b\(19_999 % 7)"]))
    }

    // MARK: HEAD, 304

    /// A `HEAD` gets the file's length and no body, and Baton reads none: the connection carries
    /// the next request, whose body is the file.
    func test_HEAD_getsTheLengthAndNoBody_andTheConnectionCarriesTheNextRequest() async throws {
        let transport = HTTP1Transport()
        let events = ConnectionEvents()
        let expected = try file("small.txt")

        let head = try await transport.send(nginx.interop("small.txt", token: token), method: "HEAD", events: events)
        let get = try await transport.send(nginx.interop("small.txt", token: token, ["after": "head"]), events: events)

        XCTAssertEqual(head.statusCode, 200)
        XCTAssertEqual(head.value(forHeader: "Content-Length"), "\(expected.count)")
        XCTAssertEqual(head.body, Data())
        XCTAssertEqual(get.body, expected)
        XCTAssertEqual(events.kinds, [.opened, .reused], "\(events.all)")
        let entries = try await log.entries(for: token, count: 2)
        XCTAssertEqual(entries.map(\.method), ["HEAD", "GET"])
        XCTAssertEqual(Set(entries.map(\.connection)).count, 1, "\(entries)")
    }

    /// `If-None-Match` with nginx's own `ETag` gets `304` and no body; the connection carries
    /// the next request.
    func test_ifNoneMatch_withNginxsETag_gets304WithoutABody_andTheConnectionGoesOn() async throws {
        let transport = HTTP1Transport()
        let events = ConnectionEvents()
        let first = try await transport.send(nginx.interop("small.txt", token: token), events: events)
        let etag = try XCTUnwrap(first.value(forHeader: "ETag"))

        let again = try await transport.send(nginx.interop("small.txt", token: token), headers: ["If-None-Match": etag], events: events)
        let after = try await transport.send(nginx.interop("small.txt", token: token, ["after": "304"]), events: events)

        XCTAssertEqual(again.statusCode, 304)
        XCTAssertEqual(again.body, Data())
        XCTAssertEqual(after.statusCode, 200)
        XCTAssertEqual(after.body, first.body)
        XCTAssertEqual(events.kinds, [.opened, .reused, .reused], "\(events.all)")
        let entries = try await log.entries(for: token, count: 3)
        XCTAssertEqual(entries.map(\.status), [200, 304, 200], "\(entries)")
        XCTAssertEqual(entries[1].ifNoneMatch, etag)
        XCTAssertEqual(entries[1].bodyBytesSent, 0)
    }

    struct Book: StoredEntity, Equatable {
        var id: Int
        var title: String
        var author: String
    }

    /// A client that keeps values and revalidates them asks nginx again with the stored ETag:
    /// nginx's `304` answers with the stored book, no body on the wire.
    func test_aStoredBook_isRevalidatedByNginx_with304_andTheStoredValue() async throws {
        let store = InMemoryEntityStore()
        let client = try Client(baseURL: nginx, transport: HTTP1Transport()) {
            $0.retryPolicy = nil
            $0.store = store
            $0.revalidatesStoredValues = true
        }
        let book = Request<Book>(.get, "book.json", query: [URLQueryItem(name: "t", value: token)])
        let first = try await client.fetch(book).value

        let second = try await client.fetch(book).value

        XCTAssertEqual(first.value, Book(id: 1, title: "吾輩は猫である", author: "夏目漱石"))
        XCTAssertFalse(first.isRevalidated)
        XCTAssertTrue(second.isRevalidated)
        XCTAssertEqual(second.value, first.value)
        XCTAssertEqual(second.response?.statusCode, 304)
        let entries = try await log.entries(for: token, count: 2)
        XCTAssertEqual(entries.map(\.status), [200, 304], "\(entries)")
        XCTAssertFalse(entries[1].ifNoneMatch.isEmpty, "\(entries)")
        XCTAssertEqual(entries[1].bodyBytesSent, 0)
    }

    // MARK: 413 before the body

    /// nginx refuses a 1 MiB body from its head (`client_max_body_size 1k`): the transport
    /// returns nginx's 413, neither hanging on the body nor failing with a broken pipe.
    func test_a1MiBPOST_overNginxsBodyLimit_returnsNginxs413() async throws {
        let response = try await HTTP1Transport().send(nginx.interop("upload/photo", token: token), method: "POST", body: Data(repeating: 0x5A, count: 1 << 20))

        XCTAssertEqual(response.statusCode, 413)
        let entry = try await log.entries(for: token, count: 1)[0]
        XCTAssertEqual(entry.status, 413)
    }

    /// Through a client, the call fails with the status, as any refused call does.
    func test_a1MiBPOST_overNginxsBodyLimit_failsTheCallWith413() async throws {
        let client = try Client(baseURL: nginx, transport: HTTP1Transport()) { $0.retryPolicy = nil }
        let upload = Request<Data>(.post, "upload/photo", query: [URLQueryItem(name: "t", value: token)],
                                   body: .data(Data(repeating: 0x5A, count: 1 << 20), contentType: "application/octet-stream"))

        let error = await apiError(client.send(upload))

        XCTAssertEqual(error?.kind, .unacceptableStatus, "\(String(describing: error))")
        XCTAssertEqual(error?.statusCode, 413)
    }
}
