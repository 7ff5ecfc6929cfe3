import Baton

// The demo API's resources and calls, as an app would declare them.

struct Order: Decodable, Sendable {
    var id: Int
    var name: String
    var ordersum: Int
}

struct Review: Decodable, Sendable {
    var id: Int
    var content: String
    var rating: Int
    var photos: [String]
}

/// A photo's processing state, as the server streams it.
struct PhotoState: Decodable, Sendable {
    var photoID: Int
    var state: String
    var progress: Int

    enum CodingKeys: String, CodingKey { case photoID = "photo_id", state, progress }
}

enum PhotoStates {
    /// The processing states of a review's photos, as server-sent events.
    static func of(review: Int) -> Request<PhotoState> {
        Request(.get, "reviews/\(review)/photos/states")
    }
}

struct NewReview: Encodable, Sendable {
    var content: String
    var rating: Int
}

struct Photo: Decodable, Sendable {
    var id: Int
    var url: String
    var bytes: Int
    var sha256: String
}

/// A book the app keeps for offline use: saved to the client's store as it arrives.
struct Book: StoredEntity {
    var id: Int
    var title: String
    var author: String
}

struct FindOrders: Endpoint {
    typealias Response = [Order]
    var name: String
    var path: EndpointPath { "order_search" }
    var query: [URLQueryItem] { [URLQueryItem(name: "name", value: name)] }
}

enum Reviews {
    static func post(facilityID: Int, content: String, rating: Int) -> Request<Review> {
        Request(.post, "facilities/\(facilityID)/reviews", body: .json(NewReview(content: content, rating: rating)))
    }

    static func get(_ id: Int) -> Request<Review> {
        Request(.get, "reviews/\(id)")
    }
}

enum Photos {
    /// One photo of a review: a file part named `photo`, with `headers` (such as a demo fault).
    static func upload(_ file: URL, to reviewID: Int, headers: [String: String] = [:]) -> Request<Photo> {
        var form = MultipartForm()
        form.append(fileAt: file, name: "photo", contentType: "image/jpeg")
        return Request(.post, "reviews/\(reviewID)/photos", headers: headers, body: .multipart(form))
    }
}

enum Books {
    static func get(_ id: Int) -> Request<Book> {
        Request(.get, "books/\(id)")
    }
}
