import Baton
import TestSupport
import XCTest

/// A transport written outside Baton, with `import Baton` alone, gets everything the built-in ones
/// get through the transport contract: the body's destination (a download's file it can resume,
/// a stream it feeds) and the timer it marks.
final class UserTransportTests: XCTestCase {
    /// Serves an 11-byte file: the first attempt writes 5 bytes into the download's file and loses
    /// its connection; the next, asked for the rest, sends them as a `206`.
    private final class ResumingTransport: Transport {
        let ranges = Recorder<String>()
        let whole = Data("hello world".utf8)

        func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
            let range = request.value(forHTTPHeaderField: "Range")
            ranges.append(range ?? "none")
            let attempt = ranges.count
            guard let download = options.destination.file else { return Promise(error: URLError(.unsupportedURL)) }
            do {
                if attempt == 1 {
                    let headers = ["ETag": "\"v1\"", "Content-Length": "11"]
                    let (offset, _) = try download.accept(status: 200, headers: { headers[$0] })
                    try write(whole.prefix(5), at: offset, to: download.file)
                    return Promise(error: URLError(.networkConnectionLost))
                }
                let headers = ["ETag": "\"v1\"", "Content-Range": "bytes 5-10/11", "Content-Length": "6"]
                let (offset, _) = try download.accept(status: 206, headers: { headers[$0] })
                try write(whole.suffix(6), at: offset, to: download.file)
                var response = HTTPResponse(statusCode: 206, headers: headers, url: request.url)
                response.bodyFile = download.file
                return Promise(value: response)
            } catch {
                return Promise(error: error)
            }
        }

        private func write(_ bytes: Data, at offset: Int64, to file: URL) throws {
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(offset))
            try handle.write(contentsOf: bytes)
        }
    }

    func test_aUserTransport_resumesADownload_inTheFileTheDestinationNames() async throws {
        let transport = ResumingTransport()
        let client = try Client(baseURL: "http://api.test/", transport: transport) {
            $0.retryPolicy = RetryPolicy(baseDelay: .milliseconds(1), maximumDelay: .milliseconds(1))
        }
        let destination = FileManager.default.temporaryDirectory.appending(path: "baton-user-transport-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: destination) }

        let url = try await client.download(Request<Data>(.get, "files/1"), to: destination).value

        XCTAssertEqual(try Data(contentsOf: url), Data("hello world".utf8))
        XCTAssertEqual(transport.ranges.events, ["none", "bytes=5-"])
    }

    private struct Item: Codable, Equatable, Sendable { var n: Int }

    func test_aUserTransport_feedsTheStreamTheDestinationNames_pieceByPiece() async throws {
        let feeding = FeedingTransport()
        let client = try Client(baseURL: "http://api.test/", transport: feeding)
        let seen = Recorder<Item>()

        let end = try await client.lines(Request<Item>(.get, "items")) { item in seen.append(item) }.value

        XCTAssertEqual(seen.events, [Item(n: 1), Item(n: 2)])
        XCTAssertEqual(end.elements, 2)
        XCTAssertEqual(feeding.piecesHandedOn.count, 3)
    }

    /// Feeds a JSON lines body to the stream in three pieces, the second cutting a line in two.
    private final class FeedingTransport: Transport {
        let piecesHandedOn = Recorder<Int>()

        func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
            let pieces = [#"{"n":1}"#, "\n{\"n\"", ":2}\n"].map { Data($0.utf8) }
            let headers = ["Content-Type": "application/x-ndjson", "Content-Length": "\(pieces.map(\.count).reduce(0, +))"]
            guard let stream = options.destination.stream, stream.accepts(status: 200, headers: headers) else {
                return Promise(error: URLError(.unsupportedURL))
            }
            for piece in pieces {
                _ = piece.withUnsafeBytes { stream.receive($0, canWait: true) }
                piecesHandedOn.append(piece.count)
            }
            return Promise(value: HTTPResponse(statusCode: 200, headers: headers, url: request.url))
        }
    }

    func test_aUserTransport_marksTheTimer_andMonitorsHearItsPhases() async throws {
        struct TimedTransport: Transport {
            func send(_ request: URLRequest, body: TransportBody?, options: TransferOptions) -> Promise<HTTPResponse> {
                options.timer?.connected(reused: true)
                options.timer?.sent()
                options.timer?.receivedFirstByte()
                return Promise(value: .json("{}"))
            }
        }
        let monitor = RecordingMonitor()
        let client = try Client(baseURL: "http://api.test/", transport: TimedTransport()) { $0.monitors = [monitor] }

        _ = try await client.send(Request<HTTPResponse>(.get, "ping")).value

        let attempt = try XCTUnwrap(monitor.events.first { $0.kind == .succeeded }?.timings?.attempts.first)
        XCTAssertEqual(attempt.reusedConnection, true)
        XCTAssertNotNil(attempt.sending)
        XCTAssertNotNil(attempt.waiting)
    }
}
