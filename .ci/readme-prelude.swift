// The names README snippets take from their surroundings: the quick start's types and client,
// the demo API's calls, and an app's own pieces (a progress bar, a screen to show things on).
// `.ci/readme-check` compiles each README block beside this file.
import Baton
import Foundation

struct Order: Decodable, Sendable { var id: Int; var name: String }
struct Review: Decodable, Sendable { var id: Int; var content: String; var rating: Int; var photos: [String] }
struct NewReview: Encodable, Sendable { var content: String; var rating: Int }
struct Photo: Decodable, Sendable { var id: Int; var url: String; var bytes: Int }
struct Book: StoredEntity { var id: Int; var title: String; var author: String }

enum Reviews {
    static func post(facilityID: Int, content: String, rating: Int) -> Request<Review> {
        Request(.post, "facilities/\(facilityID)/reviews", body: .json(NewReview(content: content, rating: rating)))
    }
}

enum Photos {
    static func upload(_ file: URL, to reviewID: Int) -> Request<Photo> {
        var form = MultipartForm()
        form.append(fileAt: file, name: "photo")
        return Request(.post, "reviews/\(reviewID)/photos", body: .multipart(form))
    }
}

let api = URL(string: "https://api.example.com/")!
let client = try! Client(baseURL: api)
let authenticator = try! Authenticator(tokenURL: api.appending(path: "tokens"))
let caches = FileManager.default.temporaryDirectory
let support = FileManager.default.temporaryDirectory
let photos: [URL] = []
let photoURL = URL(fileURLWithPath: "/tmp/photo.jpg")
let review = Review(id: 1, content: "", rating: 5, photos: [])
let photo = Photo(id: 1, url: "/photos/1", bytes: 0)

struct ProgressBar: Sendable { func update(_ progress: PromiseProgress) {} }
let bar = ProgressBar()
func show(_ values: Any...) {}
func show(_ value: Any, stale: Bool) {}
func saveForLater<E: Endpoint>(_ endpoints: [E]) {}
