@testable import Baton
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// `URLSessionTransport`'s session lives as long as the transport: a URLSession keeps its
/// delegate (and its connections) until it is invalidated, so a transport that forgot to
/// invalidate it would leak both for the life of the process.
final class URLSessionTransportLifetimeTests: XCTestCase {
    func test_releasingTheTransport_invalidatesItsSession_whichLetsGoOfItsDelegate() async throws {
        weak var delegate: SessionDelegate?
        do {
            let transport = URLSessionTransport()
            delegate = transport.delegate
        }
        // Invalidation finishes on the session's own queues; nothing signals it but the release.
        let deadline = ContinuousClock.now + .seconds(10)
        while delegate != nil, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        XCTAssertNil(delegate, "the session still holds its delegate: it was never invalidated")
    }
}
