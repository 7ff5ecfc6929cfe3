@testable import BatonSupport
@testable import BatonWire
@testable import BatonClient
import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// Baton's own transport against servers that do what ordinary ones rarely do: interim responses
/// while a body goes out, a TLS close without `close_notify`, streams cut inside an element,
/// hosts that could be read as two, and origins without end.
final class HostileNetworkTests: XCTestCase {
    /// A transport trusting DemoServer's loopback root, for the TLS conversations.
    private func transport(_ configure: (inout HTTP1Transport.Configuration) throws -> Void = { _ in }) throws -> HTTP1Transport {
        var configuration = HTTP1Transport.Configuration()
        try configuration.tls.trustRoots(pem: DemoServer.TLS.loopbackRootCertificatePEM)
        try configure(&configuration)
        return HTTP1Transport(configuration: configuration)
    }

    private func request(_ url: URL, method: String = "GET", body: Data? = nil, timeout: TimeInterval = 20) -> URLRequest {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body
        return request
    }

    // MARK: Interim responses

    /// The server answers `100 Continue` as soon as the head arrives, and `103 Early Hints` in the
    /// middle, then reads the whole body and only then sends its final response: the body must go on.
    private static func interimScript(_ peer: ConversationServer.Peer) {
        guard let head = peer.readHead(),
              let line = head.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
              let length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) else { return }
        peer.send("HTTP/1.1 100 Continue\r\n\r\n")
        guard peer.read(length / 2) != nil else { return }
        peer.send("HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n")
        guard peer.read(length - length / 2) != nil else { return }
        let text = "received \(length)"
        peer.send("HTTP/1.1 200 OK\r\nContent-Length: \(text.utf8.count)\r\n\r\n\(text)")
    }

    func test_interimAnswersWhileTheBodyGoesOut_areReadPast_andTheWholeBodyIsSent() async throws {
        for tls in [false, true] {
            let server = try ConversationServer(tls: tls, script: Self.interimScript)
            let body = Data(repeating: 0x61, count: 1 << 20)
            let response = try await transport().send(request(server.url(tls: tls), method: "POST", body: body, timeout: 10), body: nil, options: TransferOptions()).value
            XCTAssertEqual(response.statusCode, 200, "tls: \(tls)")
            XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "received \(1 << 20)", "tls: \(tls)")
        }
    }

    func test_interimAnswerReading_tellsInterimFromFinal_atAnySplit() {
        let interim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
        XCTAssertEqual(InterimResponse.read(interim), .interim(length: interim.count))
        XCTAssertEqual(InterimResponse.read(interim + Array("HTTP/1.1 413".utf8)), .interim(length: interim.count))
        XCTAssertEqual(InterimResponse.read(Array("HTTP/1.1 103 Early\nLink: x\n\n".utf8)), .interim(length: 28))
        for cut in 0..<interim.count { XCTAssertEqual(InterimResponse.read(interim[..<cut]), .incomplete, "cut at \(cut)") }
        XCTAssertEqual(InterimResponse.read(Array("HTTP/1.1 413 Too Large\r\n\r\n".utf8)), .final)
        XCTAssertEqual(InterimResponse.read(Array("HTTP/1.1 101 Switching\r\n\r\n".utf8)), .final)
        XCTAssertEqual(InterimResponse.read(Array("HTTP/1.1 200".utf8)), .final)
        XCTAssertEqual(InterimResponse.read(Array("garbage".utf8)), .final)
        XCTAssertEqual(InterimResponse.read(Array("HTTP/1.1 100 " .utf8) + Array(repeating: 0x61, count: 100), maximumLength: 64), .final)
    }

    // MARK: Truncation

    /// A close-delimited body (no length, no chunking), the connection then closed with or
    /// without TLS's `close_notify`.
    private func closeDelimited(notify: Bool) throws -> ConversationServer {
        try ConversationServer(tls: true) { peer in
            guard peer.readHead() != nil else { return }
            peer.send("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nthe whole body")
            if notify { peer.closeNotify() }
        }
    }

    func test_overTLS_aBodyEndedByTheClose_isWholeOnlyWithCloseNotify() async throws {
        let whole = try closeDelimited(notify: true)
        let response = try await transport().send(request(whole.url(tls: true)), body: nil, options: TransferOptions()).value
        XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "the whole body")

        let cut = try closeDelimited(notify: false)
        do {
            let response = try await transport().send(request(cut.url(tls: true)), body: nil, options: TransferOptions()).value
            XCTFail("a body a forged close may have cut was taken as whole: \(response.statusCode)")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .networkConnectionLost)
            XCTAssertEqual(error.detail?.contains("without the server's close_notify"), true, error.detail ?? "")
        }
    }

    struct Number: Decodable, Sendable, Equatable { var n: Int }

    /// An event stream without length or chunking, closed inside its third event the first time,
    /// whole the second.
    private func cutEventStream() throws -> ConversationServer {
        let served = Locked(0)
        return try ConversationServer { peer in
            guard peer.readHead() != nil else { return }
            let first = served.withLock { count in
                defer { count += 1 }
                return count == 0
            }
            let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\nretry: 1\n\n"
            if first {
                peer.send(head + "id: 1\ndata: {\"n\": 1}\n\nid: 2\ndata: {\"n\": 2}\n\ndata: {\"n\": 6}\nid: 6\n")
            } else {
                peer.send(head + "id: 3\ndata: {\"n\": 3}\n\n")
            }
        }
    }

    func test_aCloseDelimitedEventStream_cutInsideAnEvent_isADrop_reconnectedWhenAsked() async throws {
        for (name, transport) in [("HTTP1Transport", try transport()), ("URLSessionTransport", URLSessionTransport() as any Transport)] {
            let server = try cutEventStream()
            let client = try Client(baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!, transport: transport)
            var options = StreamOptions()
            options.reconnects = true
            let seen = Locked<[Int]>([])
            let end = try await client.events(Request<Number>(.get, "answer"), options: options) { number in
                seen.withLock { $0.append(number.n) }
            }.value
            XCTAssertEqual(seen.value, [1, 2, 3], "\(name): the cut event is never handed on")
            XCTAssertEqual(end.reconnections, 1, name)
            XCTAssertEqual(end.lastEventID, "3", name)
        }
    }

    func test_aCloseDelimitedEventStream_cutInsideAnEvent_failsSayingSo_withoutReconnects() async throws {
        for (name, transport) in [("HTTP1Transport", try transport()), ("URLSessionTransport", URLSessionTransport() as any Transport)] {
            let server = try cutEventStream()
            let client = try Client(baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!, transport: transport)
            let seen = Locked<[Int]>([])
            do {
                _ = try await client.events(Request<Number>(.get, "answer")) { number in seen.withLock { $0.append(number.n) } }.value
                XCTFail("\(name): a cut stream ended as if the server had ended it")
            } catch let error as APIError {
                XCTAssertEqual(error.kind, .transport, name)
                XCTAssertTrue(error.description.contains("cut off after 2 events"), "\(name): \(error)")
                XCTAssertTrue(error.description.contains("closed inside an event"), "\(name): \(error)")
            }
            XCTAssertEqual(seen.value, [1, 2], name)
            XCTAssertEqual(server.connections.value, 1, name)
        }
    }

    func test_aCloseDelimitedJSONLinesStream_cutInsideALine_failsSayingSo_andTheCutLineIsNotHandedOn() async throws {
        let server = try ConversationServer { peer in
            guard peer.readHead() != nil else { return }
            peer.send("HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nConnection: close\r\n\r\n{\"n\": 1}\n{\"n\": 2}\n{\"n\": 3")
        }
        let client = try Client(baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!, transport: transport())
        let seen = Locked<[Int]>([])
        do {
            _ = try await client.lines(Request<Number>(.get, "answer")) { number in seen.withLock { $0.append(number.n) } }.value
            XCTFail("a cut JSON-lines stream ended as if whole")
        } catch let error as APIError {
            XCTAssertEqual(error.kind, .transport)
            XCTAssertTrue(error.description.contains("closed inside a line"), "\(error)")
        }
        XCTAssertEqual(seen.value, [1, 2])
    }

    func test_aJSONLinesBodyWithALength_endsWithItsLastLine_evenWithoutItsLineEnd() async throws {
        let lines = "{\"n\": 1}\n{\"n\": 2}"
        let server = try ConversationServer { peer in
            guard peer.readHead() != nil else { return }
            peer.send("HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nContent-Length: \(lines.utf8.count)\r\n\r\n\(lines)")
        }
        let client = try Client(baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!, transport: transport())
        let seen = Locked<[Int]>([])
        let end = try await client.lines(Request<Number>(.get, "answer")) { number in seen.withLock { $0.append(number.n) } }.value
        XCTAssertEqual(seen.value, [1, 2])
        XCTAssertEqual(end.elements, 2)
    }

    // MARK: One identity per host

    func test_aHostWithANUL_isRefusedBeforeAnyConnection_withASentence() async throws {
        let server = try ConversationServer { peer in _ = peer.readHead() }
        let url = URL(string: "http://127.0.0.1%00.a.good.test:\(server.port)/")!
        do {
            _ = try await transport().send(request(url), body: nil, options: TransferOptions()).value
            XCTFail("a host with a NUL was sent to")
        } catch let error as URLError {
            XCTAssertEqual(error.code, .badURL)
            XCTAssertEqual(error.detail?.contains("NUL"), true, error.detail ?? "")
            XCTAssertEqual(error.detail?.hasSuffix("nothing was sent"), true, error.detail ?? "")
        }
        XCTAssertEqual(server.connections.value, 0)
    }

    func test_aRedirectToAHostWithANUL_isNotFollowed_andNoCookieGoesThere() async throws {
        let target = try ConversationServer { peer in _ = peer.readHead() }
        let origin = try ConversationServer { peer in
            guard peer.readHead() != nil else { return }
            peer.send("HTTP/1.1 302 Found\r\nSet-Cookie: session=secret; Domain=good.test\r\n"
                + "Location: http://127.0.0.1%00.b.good.test:\(target.port)/\r\nContent-Length: 0\r\n\r\n")
        }
        let client = try Client(baseURL: URL(string: "http://127.0.0.1:\(origin.port)/")!, transport: transport())
        do {
            _ = try await client.send(Request<Void>(.get, "start")).value
            XCTFail("the redirect to a host with a NUL was followed")
        } catch let error as APIError {
            XCTAssertEqual(error.kind, .redirectRefused, "\(error)")
            XCTAssertTrue(error.description.contains("NUL"), "\(error)")
        }
        XCTAssertEqual(target.connections.value, 0)
    }

    func test_aBaseURLWithAHostThatCouldBeReadAsTwo_isRefusedWhenTheClientIsMade() {
        XCTAssertThrowsError(try Client(baseURL: "http://127.0.0.1%00.evil.test:8080/")) { error in
            let text = String(describing: error)
            XCTAssertTrue(text.contains("cannot be a base URL") && text.contains("NUL"), text)
        }
    }

    // MARK: What the transport checks itself

    func test_theTransportItself_refusesAMethodOrFieldThatIsNoToken_beforeAnyConnection() async throws {
        let server = try ConversationServer { peer in _ = peer.readHead() }
        let transport = try transport()
        var bad: [URLRequest] = []
        var method = request(server.url())
        method.httpMethod = "GET /other HTTP/1.1\r\nX:"
        bad.append(method)
        var name = request(server.url())
        name.setValue("1", forHTTPHeaderField: "X Spaced")
        bad.append(name)
        var value = request(server.url())
        value.setValue("a\u{1}b", forHTTPHeaderField: "X-Control")
        bad.append(value)
        for request in bad {
            do {
                _ = try await transport.send(request, body: nil, options: TransferOptions()).value
                XCTFail("sent: \(request.httpMethod ?? "") \(request.allHTTPHeaderFields ?? [:])")
            } catch let refusal as TransportRefusal {
                XCTAssertFalse(refusal.reason.isEmpty)
            }
        }
        XCTAssertEqual(server.connections.value, 0)
    }

    // MARK: Bounded state

    func test_pastTheMostPooledOrigins_theLeastRecentlyUsedPoolIsClosed() async throws {
        let closed = XCTestExpectation(description: "the first origin's idle connection closed")
        let keepAlive: @Sendable (ConversationServer.Peer) -> Void = { peer in
            while peer.readHead() != nil { peer.send("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok") }
        }
        let first = try ConversationServer { peer in
            keepAlive(peer)
            closed.fulfill()
        }
        let second = try ConversationServer(script: keepAlive)
        let third = try ConversationServer(script: keepAlive)
        let transport = try transport { $0.maximumPooledOrigins = 2 }
        for server in [first, second, first, third] {
            _ = try await transport.send(request(server.url()), body: nil, options: TransferOptions()).value
        }
        // `second` was used least recently when `third` came: `first` stays open.
        XCTAssertEqual(first.connections.value, 1)
        _ = try await transport.send(request(second.url()), body: nil, options: TransferOptions()).value
        XCTAssertEqual(second.connections.value, 2, "the second origin's pool was closed, so a new connection was opened")
        // Now `first` is the least recent: the request to `second` closed its pool.
        await fulfillment(of: [closed], timeout: 30)
    }
}
