@testable import BatonSupport
@testable import BatonClient
import BatonWire
import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// Happy Eyeballs through the whole transport: a name whose first address drops SYNs (a
/// listener whose accept queue is full) still reaches DemoServer at its second, after one
/// attempt delay rather than the connect timeout.
final class AddressRaceIntegrationTests: XCTestCase {
    func test_aNameWhoseFirstAddressDropsSYNs_connectsThroughTheSecond() async throws {
        let server = try DemoServer.start()
        defer { server.stop() }
        let silent = try UnansweringListener()
        let addresses = [try XCTUnwrap(ResolvedAddress(numeric: "127.0.0.1", port: Int(silent.port))),
                         try XCTUnwrap(ResolvedAddress(numeric: "127.0.0.1", port: Int(server.port)))]
        var settings = HTTP1Transport.Configuration()
        settings.proxies = .none
        settings.connectTimeout = .seconds(30)
        settings.resolver = AddressResolver { host, _ throws(URLError) in
            guard host == "api.eyeballs.test" else { throw URLError(.cannotFindHost) }
            return addresses
        }
        let events = Locked<[ConnectionEvent]>([])
        var configuration = Client.Configuration(baseURL: try XCTUnwrap(URL(string: "http://api.eyeballs.test:\(server.port)/")))
        configuration.retryPolicy = nil
        configuration.monitors = [ConnectionRecorder { event in events.withLock { $0.append(event) } }]
        let client = try Client(configuration: configuration, transport: HTTP1Transport(configuration: settings))

        let started = ContinuousClock.now
        _ = try await client.send(Request<Data>(.get, "health")).value
        let elapsed = ContinuousClock.now - started
        print("Happy Eyeballs: the second address answered \(elapsed) after the request began")
        let opened = try XCTUnwrap(events.value.first { $0.kind == .opened })
        XCTAssertEqual(opened.address, "127.0.0.1:\(server.port)", "the second address won")
        XCTAssertEqual(opened.server, "api.eyeballs.test:\(server.port)")
        // One attempt delay (250 ms) and the request, far below the 30 s connect timeout that
        // trying the addresses in turn would have cost.
        XCTAssertLessThan(elapsed, .seconds(5))
    }

    /// A cancel reaches a request whose addresses are all silent while they race: it does not
    /// wait out the 30 s connect timeout. The promise settles at once whatever the transport
    /// does, so what shows the race heard it is the one connection becoming free: a second
    /// request, which waits for it, begins.
    func test_cancellingWhileTheAddressesRace_endsTheRaceAtOnce() throws {
        let silent = try UnansweringListener()
        let address = try XCTUnwrap(ResolvedAddress(numeric: "127.0.0.1", port: Int(silent.port)))
        let firstRace = expectation(description: "the first race began")
        let secondRequest = expectation(description: "the second request had the connection")
        let calls = Locked(0)
        var settings = HTTP1Transport.Configuration()
        settings.proxies = .none
        settings.connectTimeout = .seconds(30)
        settings.maximumConnectionsPerOrigin = 1
        settings.resolver = AddressResolver { _, _ throws(URLError) in
            let call = calls.withLock { count in
                count += 1
                return count
            }
            if call == 1 {
                firstRace.fulfill()
                return [address, address]
            }
            secondRequest.fulfill()
            throw URLError(.cannotFindHost)
        }
        let transport = HTTP1Transport(configuration: settings)
        let request = URLRequest(url: try XCTUnwrap(URL(string: "http://silent.test/")))
        let first = transport.send(request, body: nil, options: TransferOptions())
        wait(for: [firstRace], timeout: 10)
        let second = transport.send(request, body: nil, options: TransferOptions())
        first.cancel()
        // Far below the connect timeout: the race heard the cancel and let the connection go.
        wait(for: [secondRequest], timeout: 10)
        second.cancel()
    }
}
