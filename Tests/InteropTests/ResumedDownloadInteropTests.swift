@testable import BatonClient
import Foundation
import TestSupport
import XCTest

/// `Client.download(_:to:options:)` resuming a download that a relay in front of nginx cut
/// midway (`.ci/interop-servers/cutting_relay.py`): the second attempt asks nginx for the rest
/// with `Range` and `If-Range`, nginx sends only the rest (206), and the file is whole.
final class ResumedDownloadInteropTests: XCTestCase {
    func test_aDownloadCutMidway_resumesWithRangeAndIfRange_andNginxSendsOnlyTheRest() async throws {
        let relay = try Interop.relay()
        let log = try Interop.nginxLog()
        let expected = try Data(contentsOf: try Interop.nginxRoot().appending(path: "big.bin"))
        let token = Interop.token()
        let cut = 1_500_000
        let folder = FileManager.default.temporaryDirectory.appending(path: "baton-interop-\(token)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let events = CallEvents()
        let client = try Client(baseURL: relay, transport: HTTP1Transport()) {
            $0.retryPolicy = RetryPolicy(baseDelay: .milliseconds(10))
            $0.monitors = [events]
        }
        // The relay cuts the first response to this target after `cut` bytes, head included.
        let download = Request<Data>(.get, "big.bin", query: [URLQueryItem(name: "t", value: token), URLQueryItem(name: "cut", value: "\(cut)")])

        let file = try await client.download(download, to: folder.appending(path: "big.bin")).value

        XCTAssertEqual(Interop.sha256(try Data(contentsOf: file)), Interop.sha256(expected))
        XCTAssertEqual(events.count(of: .retrying), 1)
        XCTAssertEqual(events.count(of: .startedOver), 0)
        let entries = try await log.entries(for: token, count: 2)
        XCTAssertEqual(entries.map(\.status), [200, 206], "\(entries)")
        XCTAssertEqual(entries[0].range, "")
        let range = entries[1].range
        XCTAssertTrue(range.hasPrefix("bytes=") && range.hasSuffix("-"), "an open range from where the file stopped: \(range)")
        let resumedAt = try XCTUnwrap(Int(range.dropFirst("bytes=".count).dropLast()), range)
        XCTAssertGreaterThan(resumedAt, 0)
        XCTAssertLessThan(resumedAt, cut, "no more than the relay let through")
        XCTAssertTrue(entries[1].ifRange.hasPrefix("\""), "If-Range names nginx's strong ETag: \(entries[1])")
        XCTAssertEqual(entries[1].bodyBytesSent, expected.count - resumedAt, "nginx sent only the rest")
    }
}
