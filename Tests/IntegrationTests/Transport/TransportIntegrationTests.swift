@testable import BatonSupport
@testable import BatonPromise
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// `URLSessionTransport`'s own promises, over loopback: where its promises settle, and bodies
/// streamed from a file.
final class TransportIntegrationTests: IntegrationTestCase {
    /// The name of the `OperationQueue` where `call`'s handler ran (`nil`: none, as on a global
    /// dispatch queue), and a promise of that handler.
    private func queueOfTheHandler<T>(_ call: Promise<T>) -> (Locked<String?>, Promise<Void>) {
        let seen = Locked<String?>(nil)
        return (seen, call.then { _ in seen.withLock { $0 = OperationQueue.current?.name } })
    }

    /// A small body settles on the session's serial delegate queue, as URLSession's own
    /// completion handlers run; one of `parallelDecodingThreshold` bytes or more is handed to a
    /// global queue, so that decoding it holds up no other response of the session.
    func test_largeBodies_settleOffTheDelegateQueue_smallOnesOnIt() async throws {
        // Held in the adapter until the handlers are added, so that neither call can settle
        // before (a handler added to a settled promise runs on the thread adding it).
        let release = DispatchSemaphore(value: 0)
        let configured = try makeClient { $0.adapters = [HeldAdapter(release: release)] }
        let client = try Client(configuration: configured.configuration, transport: urlSessionTransport())
        let (smallQueue, small) = queueOfTheHandler(client.send(Request<Data>(.get, "health")))
        let (largeQueue, large) = queueOfTheHandler(client.send(Request<Data>(.get, "health", headers: [
            "X-Demo-Fault": "body-bytes=\(URLSessionTransport.parallelDecodingThreshold)",
        ])))
        release.signal()
        release.signal()

        try await small.value
        try await large.value

        XCTAssertEqual(smallQueue.value, "Baton.URLSessionTransport")
        XCTAssertNil(largeQueue.value)
    }

    /// A `.file` body is streamed from disk and arrives byte for byte.
    func test_fileBody_arrivesWhole() async throws {
        let bytes = Data(Multipart.imageBytes(count: 300_000))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("baton-file-body-\(UUID().uuidString)")
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var request = URLRequest(url: server.baseURL.appendingPathComponent("_demo/echo"))
        request.httpMethod = "POST"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")

        let response = try await urlSessionTransport().send(request, body: .file(file), options: TransferOptions()).value

        let echo = try JSONDecoder().decode(Echo.self, from: response.body)
        XCTAssertEqual(response.statusCode, 200)
        XCTAssertEqual(echo.bodyBytes, bytes.count)
        XCTAssertEqual(echo.bodySHA256, Fixtures.sha256Hex(bytes))
    }
}
