@testable import BatonClient
import Foundation
import TestSupport
import XCTest

/// Both endpoint styles against the real server: a type per call (`FindOrders`, `GetOrder`) and a
/// namespace of `Request` factories (`Reviews.post`, `Reviews.postForm`, `Reviews.get`).
final class EndpointIntegrationTests: IntegrationTestCase {
    // MARK: A type per call

    func test_findOrders_withJapaneseName_returnsBothYamadaOrders() async throws {
        let orders = try await client.send(FindOrders(name: "山田")).value

        XCTAssertEqual(orders, [Fixtures.order(1), Fixtures.order(7)])
    }

    func test_findOrders_withJapaneseName_sendsItPercentEncodedAsUTF8() async throws {
        let logged = serverLog.expectLine(containing: #""GET /order_search?name=%E5%B1%B1%E7%94%B0 HTTP/1.1" 200"#)

        _ = try await client.send(FindOrders(name: "山田")).value

        await fulfillment(of: [logged], timeout: 30)
    }

    func test_findOrders_withLatinName_returnsTheOneMatch() async throws {
        let orders = try await client.send(FindOrders(name: "Smith")).value

        XCTAssertEqual(orders, [Fixtures.order(2)])
    }

    func test_findOrders_withNameMatchingNothing_returnsEmptyArray() async throws {
        let orders = try await client.send(FindOrders(name: "該当なし")).value

        XCTAssertEqual(orders, [])
    }

    func test_getOrder_decodesEveryField() async throws {
        let order = try await client.send(GetOrder(id: 7)).value

        XCTAssertEqual(order, Order(id: 7, name: "山田花子", ordersum: 3740, subtotal: 3400, bikou: "午前中配達"))
    }

    // MARK: A namespace of Request factories

    func test_reviewsPost_withJSONBody_answersTheCreatedReview() async throws {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "眺めが最高", rating: 5)).value

        XCTAssertEqual(review, Review(id: 1, facilityID: 1, content: "眺めが最高", rating: 5, photos: []))
    }

    func test_reviewsPostForm_withFormBody_answersTheCreatedReview() async throws {
        let review = try await client.send(Reviews.postForm(facilityID: 3, content: "クラゲ & 静か = 最高 100%", rating: 4)).value

        XCTAssertEqual(review, Review(id: 1, facilityID: 3, content: "クラゲ & 静か = 最高 100%", rating: 4, photos: []))
    }

    func test_reviewsGet_returnsTheReviewPostedBefore() async throws {
        let posted = try await client.send(Reviews.post(facilityID: 2, content: "Quiet reading room", rating: 3)).value

        let fetched = try await client.send(Reviews.get(id: posted.id)).value

        XCTAssertEqual(fetched, Review(id: 1, facilityID: 2, content: "Quiet reading room", rating: 3, photos: []))
    }

    func test_chainedCalls_findThenPostThenGet_readAsOneChain() async throws {
        let client = self.client!
        let review = try await client.send(FindOrders(name: "鈴木"))
            .success { orders in client.send(Reviews.post(facilityID: 4, content: "\(orders[0].name)さんの感想", rating: 5)) }
            .success { posted in client.send(Reviews.get(id: posted.id)) }
            .value

        XCTAssertEqual(review, Review(id: 1, facilityID: 4, content: "鈴木一郎さんの感想", rating: 5, photos: []))
    }

    // MARK: snake_case keys

    func test_snakeCaseDecoder_decodesAReviewWithoutCodingKeys() async throws {
        _ = try await client.send(Reviews.post(facilityID: 2, content: "良い", rating: 5)).value
        let snakeCaseClient = try makeClient { $0.decoder.keyDecodingStrategy = .convertFromSnakeCase }

        let review = try await snakeCaseClient.send(Request<SnakeCaseReview>(.get, "reviews/1")).value

        XCTAssertEqual(review, SnakeCaseReview(id: 1, facilityId: 2, content: "良い", rating: 5, photos: []))
    }

    func test_defaultDecoder_failsOnAReviewWithoutCodingKeys_namingTheMissingKey() async throws {
        _ = try await client.send(Reviews.post(facilityID: 2, content: "良い", rating: 5)).value

        let error = await apiError(client.send(Request<SnakeCaseReview>(.get, "reviews/1")))

        XCTAssertEqual(error?.description, #"GET \#(origin)/reviews/1 returned a body that does not decode as SnakeCaseReview: key "facilityId" is missing (body starts with {"id":1,"facility_id":2,"content":"良い","rating":5,"photos":[]})."#)
    }

    // MARK: Other resources

    func test_facilityBookAndUser_decodeTheirJapaneseText() async throws {
        let facility = try await client.send(Request<Facility>(.get, "facilities/1")).value
        let book = try await client.send(Request<Book>(.get, "books/1")).value
        let user = try await client.send(Request<User>(.get, "users/2")).value

        XCTAssertEqual(facility, Facility(id: 1, name: "東京タワー"))
        XCTAssertEqual(book, Book(id: 1, title: "吾輩は猫である", author: "夏目漱石"))
        XCTAssertEqual(user, User(id: 2, name: "山田太郎"))
    }
}
