@testable import BatonSupport
@testable import BatonClient
import BatonOpenSSL
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// Where a client made without a transport sends `https`.
final class DefaultTransportTLSTests: XCTestCase {
    func test_https_goesToHTTP1Transport_aProxyInTheEnvironmentIncluded() {
        #if canImport(FoundationNetworking)
        XCTAssertTrue(DefaultTransport(environment: [:]).routesToHTTP1(scheme: "https"))
        let proxied = DefaultTransport(environment: ["https_proxy": "http://proxy:3128", "no_proxy": "internal.example.com"])
        XCTAssertTrue(proxied.routesToHTTP1(scheme: "https"))
        XCTAssertEqual(proxied.ownTransport?.configuration.proxies.https?.server, "proxy:3128")
        XCTAssertNil(proxied.ownTransport?.configuration.proxies.http, "the https proxy is not http's")
        #endif
    }

    /// Without OpenSSL, `https` goes to URLSession, and the monitors hear why, once.
    func test_withoutOpenSSL_httpsGoesToURLSession_andTheMonitorsAreToldOnce() async throws {
        #if canImport(FoundationNetworking)
        let transport = DefaultTransport(environment: [:], openSSL: .failure(OpenSSLUnavailable(reason: "libssl.so.3 was not found")))
        XCTAssertFalse(transport.routesToHTTP1(scheme: "https"))
        let events = Locked<[ConnectionEvent]>([])
        var configuration = Client.Configuration(baseURL: URL(string: "https://127.0.0.1:1/")!)
        configuration.retryPolicy = nil
        configuration.monitors = [ConnectionRecorder { event in events.withLock { $0.append(event) } }]
        let client = try Client(configuration: configuration, transport: transport)
        for _ in 0..<2 { _ = try? await client.send(Request<Data>(.get, "health")).value }
        let told = events.value.filter { $0.kind == .handedOver }
        XCTAssertEqual(told.count, 1, "\(events.value)")
        XCTAssertEqual(told.first?.description,
                       "connection 0 to 127.0.0.1:1 handed over: https goes through URLSessionTransport, as Baton's own transport cannot speak TLS here: libssl.so.3 was not found")
        #endif
    }
}
