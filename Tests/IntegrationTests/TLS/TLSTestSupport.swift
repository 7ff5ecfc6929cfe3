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
