@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// `XCTUnwrap` for a value an `await` gave.
func XCTUnwrapAsync<T>(_ value: T?, file: StaticString = #filePath, line: UInt = #line) throws -> T {
    try XCTUnwrap(value, file: file, line: line)
}

/// A monitor handing on each connection event.
struct ConnectionRecorder: ClientMonitor {
    let onEvent: @Sendable (ConnectionEvent) -> Void

    func receive(_ event: ClientEvent) {
        if let connection = event.connection { onEvent(connection) }
    }
}

/// A `URLSessionTransport`, for the tests of what URLSession itself does. Skips the test when the
/// suite runs over `https` where URLSession cannot trust the test root (`.ci/tls-suite` without
/// user namespaces: libcurl reads only the system's bundle).
func urlSessionTransport() throws -> URLSessionTransport {
    try XCTSkipIf(ProcessInfo.processInfo.environment["BATON_TEST_TLS_URLSESSION"] == "untrusted",
                  "URLSession trusts only the system's roots, and the test root is not one here")
    return URLSessionTransport()
}

/// A client of `url` over `transport`, without retries, telling `monitors`.
func testClient(_ url: URL, _ transport: HTTP1Transport, monitors: [any ClientMonitor] = []) throws -> Client {
    var configuration = Client.Configuration(baseURL: url)
    configuration.retryPolicy = nil
    configuration.monitors = monitors
    return try Client(configuration: configuration, transport: transport)
}

/// The transport failure of calling `GET /health` on `url` over `transport`: its code and
/// sentence; a failure of the test when the call succeeds or fails otherwise.
func healthFailure(of url: URL, _ transport: HTTP1Transport, file: StaticString = #filePath, line: UInt = #line) async throws -> (URLError.Code, String)? {
    do {
        _ = try await testClient(url, transport).send(Request<Data>(.get, "health")).value
        XCTFail("the call succeeded", file: file, line: line)
        return nil
    } catch let error as APIError {
        guard error.kind == .transport, let code = error.urlError?.code else {
            XCTFail("not a transport failure: \(error)", file: file, line: line)
            return nil
        }
        return (code, error.description)
    }
}
