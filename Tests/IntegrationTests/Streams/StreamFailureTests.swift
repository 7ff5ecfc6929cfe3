@testable import BatonSupport
@testable import BatonClient
import Dispatch
import Foundation
import XCTest

/// A stream that failed stays failed: nothing more reaches its handler, whoever asks it to go on.
final class StreamFailureTests: XCTestCase {
    /// A number whose decoding parks the stream's delivery queue when an element has no `n`,
    /// before it fails: so that the stream's failure has been decided, and its promise's
    /// settlement waits on that queue behind the parked block, until the test lets it go.
    private struct ParkingNumber: Decodable, Sendable {
        static let queue = DispatchQueue(label: "StreamFailureTests.delivery")
        static let parked = DispatchSemaphore(value: 0)
        static let gate = DispatchSemaphore(value: 0)
        static let decodings = Locked(0)

        var n: Int

        private enum CodingKeys: String, CodingKey { case n }

        init(from decoder: any Decoder) throws {
            Self.decodings.withLock { $0 += 1 }
            let container = try decoder.container(keyedBy: CodingKeys.self)
            if !container.contains(.n) {
                Self.queue.async {
                    ParkingNumber.parked.signal()
                    ParkingNumber.gate.wait()
                }
            }
            n = try container.decode(Int.self, forKey: .n)
        }
    }

    /// Resumed while its failure waits on the delivery queue, a stream that failed on its first
    /// element hands on none of the good ones after it.
    func test_aStreamResumedBeforeItsFailureIsDelivered_handsOnNothingMore() throws {
        let answer = Array((
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n"
            + "data: {}\n\ndata: {\"n\": 2}\n\ndata: {\"n\": 3}\n\n"
        ).utf8)
        let server = try ScriptedServer(response: answer, holdsOpen: true)
        var configuration = Client.Configuration(baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!)
        configuration.deliveryQueue = ParkingNumber.queue
        let client = try Client(configuration: configuration, transport: HTTP1Transport())
        let handed = Locked<[Int]>([])
        let stream = client.events(Request<ParkingNumber>(.get, "answer")) { number in handed.withLock { $0.append(number.n) } }

        XCTAssertEqual(ParkingNumber.parked.wait(timeout: .now() + 30), .success, "the first element was never decoded")
        XCTAssertEqual(stream.state, .running, "the failure is still on its way to the promise")
        stream.pause()
        stream.resume()
        ParkingNumber.gate.signal()

        let settled = expectation(description: "the stream settled")
        stream.then { result in
            if case .failure(let error) = result {
                XCTAssertTrue("\(error)".contains("event 1"), "\(error)")
            } else {
                XCTFail("a stream whose first element cannot be decoded succeeded")
            }
            settled.fulfill()
        }
        wait(for: [settled], timeout: 30)
        // Whatever the resume started was queued before this: it has run.
        ParkingNumber.queue.sync {}
        XCTAssertEqual(handed.value, [], "elements after the failure reached the handler")
        XCTAssertEqual(ParkingNumber.decodings.value, 1, "elements after the failure were decoded")
    }
}
