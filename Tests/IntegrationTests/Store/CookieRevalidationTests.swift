@testable import BatonSupport
@testable import BatonClient
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// A cookie-authenticated API and stored values revalidated: the validator is kept for the
/// credentials the request carried on the wire, the transport jar's cookies included, so that a
/// `304` never answers one account with the value stored for another.
final class CookieRevalidationTests: XCTestCase {
    struct Memo: StoredEntity, Equatable {
        var id: String
        var owner: String
    }

    /// `/login/NAME` sets `session=NAME`; `/memos/m1` answers the session's own memo with an ETag
    /// naming it only by version (as a careless API might), and `304` to a matching `If-None-Match`.
    private func cookieServer(conditional: Locked<[String?]>) throws -> ConversationServer {
        try ConversationServer { peer in
            while let head = peer.readHead() {
                let lines = head.split(separator: "\r\n").map(String.init)
                let target = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? ""
                func field(_ name: String) -> String? {
                    lines.first { $0.lowercased().hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
                }
                if target.hasPrefix("/login/") {
                    let user = target.dropFirst("/login/".count)
                    peer.send("HTTP/1.1 204 No Content\r\nSet-Cookie: session=\(user); Path=/\r\n\r\n")
                    continue
                }
                let asked = field("if-none-match")
                conditional.withLock { $0.append(asked) }
                if asked == "\"v1\"" {
                    peer.send("HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\n\r\n")
                    continue
                }
                let owner = field("cookie")?.replacingOccurrences(of: "session=", with: "") ?? "nobody"
                let body = #"{"id": "m1", "owner": "\#(owner)"}"#
                peer.send("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nETag: \"v1\"\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            }
        }
    }

    func test_anotherAccountsJarCookie_isNeverAnsweredWithTheValueStoredForTheFirst() async throws {
        let conditional = Locked<[String?]>([])
        let server = try cookieServer(conditional: conditional)
        let client = try Client(baseURL: URL(string: "http://127.0.0.1:\(server.port)/")!, transport: HTTP1Transport()) {
            $0.store = InMemoryEntityStore()
            $0.revalidatesStoredValues = true
            $0.retryPolicy = nil
        }
        let memo = Request<Memo>(.get, "memos/m1")
        _ = try await client.send(Request<Void>(.get, "login/alice")).value
        let first = try await client.send(memo).value
        let revalidated = try await client.send(memo).value
        XCTAssertEqual([first.owner, revalidated.owner], ["alice", "alice"])

        _ = try await client.send(Request<Void>(.get, "login/mallory")).value
        let other = try await client.send(memo).value
        XCTAssertEqual(other.owner, "mallory")
        XCTAssertEqual(conditional.value, [nil, "\"v1\"", nil], "mallory's first request asked for the whole value")
    }
}
