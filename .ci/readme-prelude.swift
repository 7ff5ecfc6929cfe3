// The names README snippets take from their surroundings: the quick start's types and client,
// the demo API's calls, and an app's own pieces (a progress bar, a screen to show things on).
// `.ci/readme-check` compiles each README block beside this file.
import Baton
import DemoServer
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

// What the doc comments' examples take from their surroundings: an app's own calls, screens and
// records, standing for whatever the reader's app has.
struct User: Decodable, Sendable { var id: Int; var name: String }
struct PhotoState: Decodable, Sendable { var photoID: Int; var state: String; var progress: Int }
enum Orders {
    static func find(name: String) -> Request<[Order]> { Request(.get, "order_search", query: [URLQueryItem(name: "name", value: name)]) }
    static let cached = Request<[Order]>(.get, "orders/cached")
}
extension Photos {
    static func form(_ file: URL) -> MultipartForm {
        var form = MultipartForm()
        form.append(fileAt: file, name: "photo")
        return form
    }
}
let id = 1
let facilityID = 1
let newReview = NewReview(content: "良い", rating: 5)
let book = Book(id: 1, title: "吾輩は猫である", author: "夏目漱石")
let cache = FileManager.default.temporaryDirectory
let secret = "s3cr3t"
let cachedOrders: [Order] = []
let orders: Promise<[Order]> = client.send(Orders.find(name: "山田"))
let find = orders
let findOrders = Orders.find(name: "山田")
let download = client.download(Request<Data>(.get, "photos/1"), to: caches.appending(path: "1.jpg"))
func findOrder(_ id: Int) -> Promise<Order> { client.send(Request(.get, "orders/\(id)")) }
func findUser(_ id: Int) -> Promise<User> { client.send(Request(.get, "users/\(id)")) }
func post(_ orders: [Order]) -> Promise<Review> { client.send(Reviews.post(facilityID: orders[0].id, content: "良い", rating: 5)) }
func upload(_ review: Review) -> Promise<[Photo]> { client.sendAll(photos.map { Photos.upload($0, to: review.id) }) }
func uploadPhotos(of review: Review) -> Promise<[Photo]> { upload(review) }
func report(_ error: (any Error)?) {}
func record(_ duration: Duration?) {}
func retryLater<E: Endpoint>(_ endpoints: [E]) {}
func showLogin() {}
func showConflict(_ message: String?) {}
func tell(_ count: Int, _ text: String) {}
func log(_ value: Any) {}
func export(_ order: Order) {}
struct Banner { func show(_ error: any Error) {} }
let banner = Banner()
struct Router { func showLogin() {} }
let router = Router()
struct Session { var token = "" }
let session = Session()
struct Keychain { func loadToken() async throws -> String { "" } }
let keychain = Keychain()
struct Transfer { func suspend() {}; func resume() {}; func stop() {} }
func startTransfer(
    onProgress: @escaping @Sendable (PromiseProgress) -> Void, onDone: @escaping @Sendable (Data) -> Void,
    onError: @escaping @Sendable (any Error) -> Void
) -> Transfer { Transfer() }
/// A callback API of the app's own, as `Promise { }` wraps one.
struct LegacyAPI {
    struct Call { func cancel() {} }
    func get(_ path: String, _ query: [String: String], completion: @escaping @Sendable (Result<[Order], any Error>) -> Void) -> Call { Call() }
}
let legacyAPI = LegacyAPI()

// What the sign-in examples take from their surroundings: the demo server the authentication
// article starts in its first example, the authenticator it made, and the browser an app opens.
let server = try! DemoServer.start()
let auth = authenticator
/// Stands for the system's browser: opens `url` and returns the URL the authorization server
/// redirected back to (`ASWebAuthenticationSession` on Apple platforms).
func openInBrowser(_ url: URL) async throws -> URL { url }
let callback = URL(string: "com.example.app:/signed-in?code=c&state=s")!
let access = "access token"
let refresh: String? = "refresh token"
let expiry: Date? = Date(timeIntervalSinceNow: 3600)
