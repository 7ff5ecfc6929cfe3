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
import XCTest

/// How HTTP1Transport reads one response off a connection, over a socket pair: the server's end is
/// written by the test, whole, before the reader starts.
final class ResponseReaderTests: XCTestCase {
    /// Reads `text`, written by the server's end, as the response to a `method` request whose
    /// responses may hold at most `limit` bytes.
    private func read(_ text: String, method: String, limit: Int) throws -> ConnectionResult {
        var ends: [Int32] = [-1, -1]
        #if canImport(Glibc)
        XCTAssertEqual(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends), 0)
        #else
        XCTAssertEqual(socketpair(AF_UNIX, SOCK_STREAM, 0, &ends), 0)
        #endif
        let socket = Socket(descriptor: ends[0])
        defer {
            socket.close()
            #if canImport(Glibc)
            _ = Glibc.close(ends[1])
            #else
            _ = Darwin.close(ends[1])
            #endif
        }
        let bytes = Array(text.utf8)
        XCTAssertEqual(send(ends[1], bytes, bytes.count, 0), bytes.count)
        var urlRequest = URLRequest(url: URL(string: "http://h/photo")!)
        urlRequest.httpMethod = method
        let request = InFlightRequest(request: urlRequest, body: nil, options: TransferOptions(maximumResponseSize: limit))
        defer { request.promise.cancel() }  // settles it, ending the request's hold on its promise
        let reader = ResponseReader(request: request, link: Link(socket: socket, tls: nil), cookies: nil)
        var buffer = [UInt8](repeating: 0, count: 1024)
        var answered = false
        return try reader.read(into: &buffer, answered: &answered)
    }

    /// The length a bodiless response declares is not its body's: held against the size limit, it
    /// would refuse a `HEAD` of any large file. The reader asks the parser's rule
    /// (``BodyFraming/forbidsBody(method:status:)``), so the two never disagree.
    func test_aHEADResponse_hasNoBody_whateverItsFieldsDeclare() throws {
        let result = try read("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n", method: "HEAD", limit: 10)
        XCTAssertEqual(result.response.statusCode, 200)
        XCTAssertEqual(result.response.body, Data())
        XCTAssertTrue(result.keepsConnection)
    }

    func test_a204Or304_hasNoBody_whateverItsFieldsDeclare() throws {
        for status in ["204 No Content", "304 Not Modified"] {
            let result = try read("HTTP/1.1 \(status)\r\nContent-Length: 1000000\r\n\r\n", method: "GET", limit: 10)
            XCTAssertEqual(result.response.body, Data(), status)
            XCTAssertTrue(result.keepsConnection, status)
        }
    }

    /// The other side of the rule: a response that has a body is held to the limit by the length
    /// it declares, before a byte of it is read.
    func test_aGETsAnswer_declaringMoreThanTheLimit_isRefusedAtItsHead() {
        XCTAssertThrowsError(try read("HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n", method: "GET", limit: 10)) { error in
            XCTAssertEqual((error as? URLError)?.code, .dataLengthExceedsMaximum)
        }
    }

    // MARK: Whether the connection carries another request

    func test_anAnswerSayingConnectionClose_leavesTheConnectionUnfitForAnother() throws {
        let result = try read("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok", method: "GET", limit: 10)
        XCTAssertEqual(result.response.body, Data("ok".utf8))
        XCTAssertFalse(result.keepsConnection)
    }

    /// Baton sends no request before the last is answered: bytes past the response are a server out
    /// of step, and the connection is not trusted with another request.
    func test_bytesPastTheAnswer_leaveTheConnectionUnfitForAnother() throws {
        let result = try read("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1 200 OK\r\n", method: "GET", limit: 10)
        XCTAssertEqual(result.response.body, Data("ok".utf8))
        XCTAssertFalse(result.keepsConnection)
    }
}
