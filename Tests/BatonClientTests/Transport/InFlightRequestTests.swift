@testable import BatonWire
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport
import XCTest

/// What a cancel reaches on a connection: the socket attached to the request, and no other.
final class InFlightRequestTests: XCTestCase {
    /// A connected pair of stream sockets: the request's end and its peer.
    private func socketPair() throws -> (Socket, Int32) {
        var ends: [Int32] = [-1, -1]
        #if canImport(Glibc)
        let made = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends)
        #else
        let made = socketpair(AF_UNIX, SOCK_STREAM, 0, &ends)
        #endif
        XCTAssertEqual(made, 0)
        return (Socket(descriptor: ends[0]), ends[1])
    }

    private func closePeer(_ peer: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(peer)
        #else
        _ = Darwin.close(peer)
        #endif
    }

    /// Whether the peer sees the request's end shut down (end of file, at once).
    private func peerSeesShutdown(_ peer: Int32) -> Bool {
        var byte: UInt8 = 0
        return recv(peer, &byte, 1, Int32(MSG_DONTWAIT)) == 0
    }

    func test_cancel_shutsDownTheAttachedSocket() throws {
        let (socket, peer) = try socketPair()
        defer { socket.close(); closePeer(peer) }
        let request = InFlightRequest(request: URLRequest(url: URL(string: "http://h/")!), body: nil, options: TransferOptions())
        XCTAssertTrue(request.attach(socket))
        request.promise.cancel()
        XCTAssertTrue(peerSeesShutdown(peer))
    }

    /// The descriptor a connection detached may be closed and its number reused by another
    /// connection at once: a cancel after the detach must not reach it.
    func test_cancelAfterDetach_leavesTheSocketAlone() throws {
        let (socket, peer) = try socketPair()
        defer { socket.close(); closePeer(peer) }
        let request = InFlightRequest(request: URLRequest(url: URL(string: "http://h/")!), body: nil, options: TransferOptions())
        XCTAssertTrue(request.attach(socket))
        request.detach()
        request.promise.cancel()
        XCTAssertFalse(peerSeesShutdown(peer))
        var byte: UInt8 = 7
        XCTAssertEqual(send(peer, &byte, 1, 0), 1, "the socket still carries bytes")
    }

    func test_attachAfterCancel_isRefused_andTheSocketIsNotKept() throws {
        let (socket, peer) = try socketPair()
        defer { socket.close(); closePeer(peer) }
        let request = InFlightRequest(request: URLRequest(url: URL(string: "http://h/")!), body: nil, options: TransferOptions())
        request.promise.cancel()
        XCTAssertFalse(request.attach(socket))
        XCTAssertFalse(peerSeesShutdown(peer))
    }

    /// The transport sends again, on a new connection, only what the retry policy would retry:
    /// both read HTTPMethod's one rule, so the two can never disagree on a method.
    func test_aRequestsMethod_isIdempotentOnTheWire_exactlyWhenHTTPMethodSaysSo() {
        func onTheWire(_ method: String?) -> Bool {
            var urlRequest = URLRequest(url: URL(string: "http://h/")!)
            urlRequest.httpMethod = method
            let request = InFlightRequest(request: urlRequest, body: nil, options: TransferOptions())
            defer { request.promise.cancel() }  // settles it, ending the request's hold on its promise
            return request.isIdempotent
        }
        for method in ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"] {
            XCTAssertTrue(HTTPMethod(rawValue: method).isIdempotent, method)
            XCTAssertTrue(onTheWire(method), method)
        }
        for method in ["POST", "PATCH", "CONNECT", "BREW"] {
            XCTAssertFalse(HTTPMethod(rawValue: method).isIdempotent, method)
            XCTAssertFalse(onTheWire(method), method)
        }
        XCTAssertTrue(onTheWire(nil), "a request without a method goes as a GET")
    }
}
