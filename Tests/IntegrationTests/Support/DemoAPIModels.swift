@testable import BatonClient
import DemoServer
import Foundation
import TestSupport

/// The demo API (the DemoServer article) as an app would describe it to Baton: its values and its
/// endpoints, in both styles Baton offers (a type per call, and a namespace of `Request`
/// factories). `Order` is shared with the client tests, in TestSupport.

// MARK: Values

/// A review, its snake_case keys mapped by `CodingKeys` (works with any decoder).
struct Review: Decodable, Equatable, Sendable {
    var id: Int
    var facilityID: Int
    var content: String
    var rating: Int
    var photos: [String]

    enum CodingKeys: String, CodingKey {
        case id
        case facilityID = "facility_id"
        case content, rating, photos
    }
}

/// A review without `CodingKeys`: decodes only with `.convertFromSnakeCase`
/// (`facility_id` → `facilityId`).
struct SnakeCaseReview: Decodable, Equatable, Sendable {
    var id: Int
    var facilityId: Int
    var content: String
    var rating: Int
    var photos: [String]
}

struct NewReview: Encodable, Sendable {
    var content: String
    var rating: Int
}

struct Photo: Decodable, Equatable, Sendable {
    var id: Int
    var reviewID: Int
    var url: String
    var filename: String
    var bytes: Int
    var sha256: String

    enum CodingKeys: String, CodingKey {
        case id
        case reviewID = "review_id"
        case url, filename, bytes, sha256
    }
}

struct Facility: Decodable, Equatable, Sendable {
    var id: Int
    var name: String
}

struct Book: Decodable, Equatable, Sendable {
    var id: Int
    var title: String
    var author: String
}

struct User: Decodable, Equatable, Sendable {
    var id: Int
    var name: String
}

struct Health: Decodable, Equatable, Sendable {
    var status: String
}

/// `POST /tokens`' response.
struct Tokens: Decodable, Equatable, Sendable {
    var token: String
    var refreshToken: String
    var expiresIn: Int

    enum CodingKeys: String, CodingKey {
        case token
        case refreshToken = "refresh_token"
        case expiresIn = "expires_in"
    }
}

/// `/_demo/echo`'s response: what arrived at the server (header names lower-cased).
struct Echo: Decodable, Equatable, Sendable {
    var method: String
    var path: String
    var query: String
    var headers: [String: String]
    var bodyBytes: Int
    var bodySHA256: String

    enum CodingKeys: String, CodingKey {
        case method, path, query, headers
        case bodyBytes = "body_bytes"
        case bodySHA256 = "body_sha256"
    }
}

/// `GET /_demo/stats`, decoded with the type DemoServer documents for it.
typealias Stats = DemoServer.Stats

// MARK: Endpoints, one type per call

/// `GET /order_search?name=N`.
struct FindOrders: Endpoint {
    typealias Response = [Order]
    var name: String
    var path: EndpointPath { "order_search" }
    var query: [URLQueryItem] { [URLQueryItem(name: "name", value: name)] }
}

/// `GET /orders/:id`, with an optional fault for the server to inject.
struct GetOrder: Endpoint {
    typealias Response = Order
    var id: Int
    var fault: String?
    var path: EndpointPath { "orders/\(id)" }
    var headers: [String: String] { fault.map { ["X-Demo-Fault": $0] } ?? [:] }
}

// MARK: Endpoints, a namespace of Request factories

enum Reviews {
    /// Posts a review as JSON.
    static func post(facilityID: Int, content: String, rating: Int, headers: [String: String] = [:]) -> Request<Review> {
        Request(.post, "facilities/\(facilityID)/reviews", headers: headers,
                body: .json(NewReview(content: content, rating: rating)))
    }

    /// Posts a review as `application/x-www-form-urlencoded`.
    static func postForm(facilityID: Int, content: String, rating: Int) -> Request<Review> {
        Request(.post, "facilities/\(facilityID)/reviews",
                body: .form([("content", content), ("rating", String(rating))]))
    }

    static func get(id: Int) -> Request<Review> {
        Request(.get, "reviews/\(id)")
    }
}

enum Photos {
    /// A photo upload to review `reviewID` as an app builds it with `MultipartForm`: `bytes` as
    /// `photo<index>.jpg`, with the fault `fault` for the server to inject, if given.
    static func upload(_ bytes: Data, index: Int, to reviewID: Int, fault: String? = nil) -> Request<Photo> {
        var form = MultipartForm()
        form.append(bytes, name: "photo", filename: "photo\(index).jpg", contentType: "image/jpeg")
        return Request(.post, "reviews/\(reviewID)/photos", headers: fault.map { ["X-Demo-Fault": $0] } ?? [:], body: .multipart(form))
    }

    /// Uploads a `multipart/form-data` body built by ``Multipart``.
    static func upload(reviewID: Int, _ form: Multipart) -> Request<Photo> {
        Request(.post, "reviews/\(reviewID)/photos", body: .data(form.body, contentType: form.contentType))
    }

    /// The photo's bytes, whatever their content type, with progress as they arrive unless
    /// `tracksProgress` is false.
    static func download(id: Int, headers: [String: String] = [:], tracksProgress: Bool = true) -> Request<Data> {
        var request = Request<Data>(.get, "photos/\(id)", headers: headers)
        request.tracksDownloadProgress = tracksProgress
        return request
    }
}

enum Demo {
    static let reset = Request<Void>(.post, "_demo/reset")
    static let expireTokens = Request<Void>(.post, "_demo/expire-tokens")
    static let stats = Request<Stats>(.get, "_demo/stats")

    static func echo(_ method: HTTPMethod = .get, headers: [String: String] = [:], body: RequestBody = .none) -> Request<Echo> {
        Request(method, "_demo/echo", headers: headers, body: body)
    }

    /// `/_demo/redirect?status=S&to=URL`, answered (after following) by whatever `to` responses.
    static func redirect(
        _ method: HTTPMethod = .get, status: Int, to target: String, headers: [String: String] = [:],
        body: RequestBody = .none
    ) -> Request<Echo> {
        Request(method, "_demo/redirect",
                query: [URLQueryItem(name: "status", value: String(status)), URLQueryItem(name: "to", value: target)],
                headers: headers, body: body)
    }

    static func login(username: String = "demo", password: String = "demo") -> Request<Tokens> {
        Request(.post, "tokens", body: .form([("grant_type", "password"), ("username", username), ("password", password)]))
    }
}

/// What the demo API holds for seed 0 (the same seed always gives the same orders).
enum Fixtures {
    static let orders: [Order] = [
        Order(id: 1, name: "山田太郎", ordersum: 3960, subtotal: 3600, bikou: ""),
        Order(id: 2, name: "John Smith", ordersum: 3300, subtotal: 3000, bikou: "Leave at the front desk"),
        Order(id: 3, name: "佐藤花子", ordersum: 5280, subtotal: 4800, bikou: ""),
        Order(id: 4, name: "María García", ordersum: 1540, subtotal: 1400, bikou: "Gift wrap, please"),
        Order(id: 5, name: "鈴木一郎", ordersum: 5500, subtotal: 5000, bikou: "Gift wrap, please"),
        Order(id: 6, name: "Emily Johnson", ordersum: 220, subtotal: 200, bikou: "Leave at the front desk"),
        Order(id: 7, name: "山田花子", ordersum: 3740, subtotal: 3400, bikou: "午前中配達"),
        Order(id: 8, name: "François Dupont", ordersum: 1980, subtotal: 1800, bikou: "置き配希望"),
    ]

    static func order(_ id: Int) -> Order { orders[id - 1] }
}

/// A `multipart/form-data` body, byte for byte as the test says.
struct Multipart: Sendable {
    var boundary = "BatonIntegrationBoundary7MA4YWxkTrZu0gW"
    private var parts = Data()

    var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The body with its closing delimiter.
    var body: Data { parts + Data("--\(boundary)--\r\n".utf8) }

    mutating func addFile(name: String = "photo", filename: String = "photo.jpg", contentType: String = "image/jpeg", _ data: Data) {
        parts += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\nContent-Type: \(contentType)\r\n\r\n".utf8)
        parts += data
        parts += Data("\r\n".utf8)
    }

    mutating func addText(name: String, _ text: String) {
        parts += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(text)\r\n".utf8)
    }

    /// `count` bytes of a fixed pattern that never contains the boundary.
    static func imageBytes(count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
    }
}

