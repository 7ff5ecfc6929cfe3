import XCTest
@testable import DemoServer
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Health, orders, facilities, books, users and reviews, through URLSession.
final class ResourceRoutesTests: ServerTestCase {
    private var token = ""

    override func setUp() async throws {
        try await super.setUp()
        token = try await login().token
    }

    func test_health_answersStatusOkAsJSON() async throws {
        let reply = try await send("GET", "/health")
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.headers["content-type"], "application/json; charset=utf-8")
        XCTAssertEqual(reply.headers["content-length"], "15")
        XCTAssertEqual(reply.text, #"{"status":"ok"}"#)
    }

    func test_order_answersTheSeededOrder() async throws {
        let reply = try await send("GET", "/orders/1", token: token)
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.text, #"{"id":1,"name":"山田太郎","ordersum":3960,"subtotal":3600,"bikou":""}"#)
    }

    func test_unknownOrderId_answers404NotFound() async throws {
        for path in ["/orders/999", "/orders/0", "/orders/abc", "/orders/1/extra", "/orders/99999999999999999999999"] {
            let reply = try await send("GET", path, token: token)
            XCTAssertEqual(reply.status, 404, path)
            XCTAssertEqual(reply.message, "not_found", path)
        }
    }

    func test_wrongMethodOnAKnownPath_answers404() async throws {
        let reply = try await send("DELETE", "/orders/1", token: token)
        XCTAssertEqual(reply.status, 404)
    }

    func test_orderSearch_matchesJapaneseNamesBySubstring() async throws {
        let reply = try await send("GET", "/order_search?name=%E5%B1%B1%E7%94%B0", token: token)
        XCTAssertEqual(reply.status, 200)
        let orders = try XCTUnwrap(reply.json as? [[String: Any]])
        XCTAssertEqual(orders.compactMap { $0["id"] as? Int }, [1, 7])
        XCTAssertEqual(orders.compactMap { $0["name"] as? String }, ["山田太郎", "山田花子"])
    }

    func test_orderSearch_matchesLatinNames() async throws {
        let reply = try await send("GET", "/order_search?name=Smith", token: token)
        XCTAssertEqual((reply.json as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["John Smith"])
    }

    func test_orderSearchWithoutMatch_answersEmptyArray() async throws {
        let reply = try await send("GET", "/order_search?name=Nobody", token: token)
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.text, "[]")
    }

    func test_orderSearchWithoutName_answersEveryOrder() async throws {
        let reply = try await send("GET", "/order_search", token: token)
        XCTAssertEqual((reply.json as? [Any])?.count, 8)
    }

    func test_facilityBookAndUsers_answerTheirSeededRecords() async throws {
        let facility = try await send("GET", "/facilities/1", token: token)
        XCTAssertEqual(facility.text, #"{"id":1,"name":"東京タワー"}"#)
        let book = try await send("GET", "/books/2", token: token)
        XCTAssertEqual(book.text, #"{"id":2,"title":"Pride and Prejudice","author":"Jane Austen"}"#)
        for (id, name) in [(1, "demo"), (2, "山田太郎"), (3, "Jane Smith")] {
            let user = try await send("GET", "/users/\(id)", token: token)
            XCTAssertEqual(user.text, #"{"id":\#(id),"name":"\#(name)"}"#)
        }
        let missing = try await send("GET", "/users/4", token: token)
        XCTAssertEqual(missing.status, 404)
    }

    func test_createReviewFromForm_answers201AndCanBeReadBack() async throws {
        let created = try await postForm("/facilities/2/reviews", [("content", "静かで良い & quiet"), ("rating", "4")], token: token)
        XCTAssertEqual(created.status, 201)
        let expected = #"{"id":1,"facility_id":2,"content":"静かで良い & quiet","rating":4,"photos":[]}"#
        XCTAssertEqual(created.text, expected)
        XCTAssertEqual(created.headers["location"], "/reviews/1")
        let read = try await send("GET", "/reviews/1", token: token)
        XCTAssertEqual(read.text, expected)
    }

    func test_createReviewFromJSON_assignsIncreasingIds() async throws {
        let first = try await postJSON("/facilities/1/reviews", ["content": "a", "rating": 5], token: token)
        let second = try await postJSON("/facilities/1/reviews", ["content": "b", "rating": 1], token: token)
        XCTAssertEqual(first.object["id"] as? Int, 1)
        XCTAssertEqual(second.object["id"] as? Int, 2)
        XCTAssertEqual(second.object["rating"] as? Int, 1)
    }

    func test_invalidReviewBodies_answer422WithWhatIsWrong() async throws {
        let cases: [(Any, String)] = [
            (["content": "x", "rating": 6], "rating must be between 1 and 5"),
            (["content": "x", "rating": 0], "rating must be between 1 and 5"),
            (["content": "x", "rating": 4.5], "rating must be an integer"),
            (["content": "x", "rating": "4"], "rating must be an integer"),
            (["content": "x", "rating": true], "rating must be an integer"),
            (["rating": 3], "content is missing"),
            (["content": 3, "rating": 3], "content must be a string"),
            (["content": "x"], "rating is missing"),
            ([1, 2], "body must be a JSON object"),
        ]
        for (body, message) in cases {
            let reply = try await postJSON("/facilities/1/reviews", body, token: token)
            XCTAssertEqual(reply.status, 422, message)
            XCTAssertEqual(reply.message, message)
        }
        let badJSON = try await send("POST", "/facilities/1/reviews", headers: ["Content-Type": "application/json"],
                                     body: Data("{\"content\":".utf8), token: token)
        XCTAssertEqual(badJSON.status, 422)
        XCTAssertEqual(badJSON.message, "body is not valid JSON")
        let formRating = try await postForm("/facilities/1/reviews", [("content", "x"), ("rating", "four")], token: token)
        XCTAssertEqual(formRating.message, "rating must be an integer")
    }

    func test_reviewWithUnsupportedBodyType_answers415() async throws {
        let reply = try await send("POST", "/facilities/1/reviews", headers: ["Content-Type": "text/plain"],
                                   body: Data("content=x&rating=3".utf8), token: token)
        XCTAssertEqual(reply.status, 415)
    }

    func test_reviewForUnknownFacility_answers404() async throws {
        let reply = try await postJSON("/facilities/99/reviews", ["content": "x", "rating": 3], token: token)
        XCTAssertEqual(reply.status, 404)
        XCTAssertEqual(reply.message, "not_found")
    }

    func test_head_answersHeadersWithoutBody() async throws {
        let reply = try await send("HEAD", "/health")
        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.headers["content-length"], "15")
        XCTAssertEqual(reply.body.count, 0)
    }
}

/// The seeded demo data itself.
final class DemoDataTests: XCTestCase {
    func test_sameSeed_givesIdenticalOrders() {
        XCTAssertEqual(DemoData(seed: 42).orders, DemoData(seed: 42).orders)
    }

    func test_otherSeed_changesAmountsButKeepsIdsAndNames() {
        let a = DemoData(seed: 1).orders
        let b = DemoData(seed: 2).orders
        XCTAssertEqual(a.map(\.name), b.map(\.name))
        XCTAssertEqual(a.map(\.id), Array(1...8))
        XCTAssertNotEqual(a.map(\.subtotal), b.map(\.subtotal))
    }

    func test_seedZero_hasJapaneseAndLatinNames() {
        let names = DemoData(seed: 0).orders.map(\.name)
        XCTAssertEqual(names, ["山田太郎", "John Smith", "佐藤花子", "María García", "鈴木一郎", "Emily Johnson", "山田花子", "François Dupont"])
    }
}
