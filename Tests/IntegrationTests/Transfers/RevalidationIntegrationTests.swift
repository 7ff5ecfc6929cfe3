@testable import BatonClient
@testable import BatonImages
import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import XCTest

/// Conditional requests against DemoServer: a stored book and an image on disk revalidated with
/// their `ETag`, a `304` answering from what is kept, with no body on the wire.
final class RevalidationIntegrationTests: ImageTestCase {
    /// A book as the store keeps it.
    struct StoredBook: StoredEntity, Equatable {
        var id: Int
        var title: String
        var author: String
    }

    private func bookClient(store: InMemoryEntityStore, revalidates: Bool = true) throws -> Client {
        try makeClient { configuration in
            configuration.store = store
            configuration.revalidatesStoredValues = revalidates
        }
    }

    func test_aStoredBook_isRevalidated_withA304_andTheSameValue_withoutABody() async throws {
        let store = InMemoryEntityStore()
        let client = try bookClient(store: store)
        let first = try await client.fetch(Request<StoredBook>(.get, "books/1")).value
        let before = try await stats()

        let second = try await client.fetch(Request<StoredBook>(.get, "books/1")).value

        XCTAssertFalse(first.isRevalidated)
        XCTAssertTrue(second.isRevalidated)
        XCTAssertEqual(second.value, first.value)
        XCTAssertEqual(second.response?.statusCode, 304)
        XCTAssertEqual(second.response?.body.count, 0)
        let after = try await stats()
        XCTAssertEqual(after.notModified - before.notModified, 1)
        XCTAssertLessThan(after.bytesSent - before.bytesSent, 1_000, "a head, and the stats' own answer: no book")
        XCTAssertEqual(try store.read(StoredBook.self, id: 1), first.value)
    }

    func test_withoutRevalidation_theBookIsAskedForWhole() async throws {
        let client = try bookClient(store: InMemoryEntityStore(), revalidates: false)
        _ = try await client.send(Request<StoredBook>(.get, "books/1")).value

        let second = try await client.fetch(Request<StoredBook>(.get, "books/1")).value

        XCTAssertFalse(second.isRevalidated)
        XCTAssertEqual(second.response?.statusCode, 200)
        let notModified = try await stats().notModified
        XCTAssertEqual(notModified, 0)
    }

    /// A review as the store keeps it: its photos change it.
    struct StoredReview: StoredEntity, Equatable {
        var id: Int
        var content: String
        var photos: [String]
    }

    func test_aChangedValue_isReplaced_by200() async throws {
        let store = InMemoryEntityStore()
        let client = try bookClient(store: store)
        let review = try await client.send(Reviews.post(facilityID: 1, content: "変わる", rating: 4)).value
        let first = try await client.send(Request<StoredReview>(.get, "reviews/\(review.id)")).value
        _ = try await client.send(Photos.upload(image, index: 0, to: review.id)).value

        let again = try await client.fetch(Request<StoredReview>(.get, "reviews/\(review.id)")).value

        XCTAssertEqual(again.response?.statusCode, 200)
        XCTAssertFalse(again.isRevalidated)
        XCTAssertEqual(first.photos.count, 0)
        XCTAssertEqual(again.value.photos.count, 1)
        XCTAssertEqual(try store.read(StoredReview.self, id: review.id), again.value, "the 200 replaced the stored value")
    }

    func test_anImageOnDisk_isRevalidated_withA304_andServedFromDisk() async throws {
        let disk = folder.appending(path: "images")
        _ = try await ImageLoader(client: client, diskCache: disk).load(photoURL).value
        let before = try await stats()

        let again = try await ImageLoader(client: client, diskCache: disk).load(photoURL).value

        XCTAssertEqual(again, LoadedImage(data: image, contentType: "image/jpeg"))
        let after = try await stats()
        XCTAssertEqual(after.notModified - before.notModified, 1)
        XCTAssertLessThan(after.bytesSent - before.bytesSent, 2_000, "no image on the wire")
    }

    /// Sends every request to a redirect DemoServer answers `302`, with `album` in its query.
    private struct Redirecting: RequestAdapter {
        func adapt(_ request: URLRequest, context: AttemptContext) async throws -> URLRequest {
            var moved = request
            moved.url = URL(string: "/_demo/redirect?status=302&to=/photos/1&album=private-trip", relativeTo: request.url)?.absoluteURL
            return moved
        }
    }

    /// Asking whether an image on disk changed, a redirect the client does not follow is no image:
    /// the load fails with its status, and the error hides what the client's redaction hides.
    func test_anUnfollowedRedirect_whileRevalidating_failsTheLoad_andItsErrorHidesTheClientsSecrets() async throws {
        let disk = folder.appending(path: "images")
        _ = try await ImageLoader(client: client, diskCache: disk).load(photoURL).value
        let redirected = try makeClient {
            $0.redirects = .never
            $0.redaction = $0.redaction.merged(with: Redaction(headers: [], bodyFields: ["album"]))
            $0.adapters = [Redirecting()]
        }

        do {
            _ = try await ImageLoader(client: redirected, diskCache: disk).load(photoURL).value
            XCTFail("a redirect was loaded as an image")
        } catch let error as APIError {
            XCTAssertEqual(error.statusCode, 302)
            XCTAssertTrue(error.description.contains("album=<redacted>"), error.description)
            XCTAssertFalse(error.description.contains("private-trip"), error.description)
        }
    }

    func test_anImageOnDisk_isServed_whenTheServerCannotBeReached() async throws {
        let other = try DemoServer.start()
        let tokens = try await login(on: other)
        let client = try makeClient(of: other, authorized: false) { $0.headers["Authorization"] = "Bearer \(tokens.token)" }
        let review = try await client.send(Reviews.post(facilityID: 1, content: "圏外", rating: 3)).value
        let url = try await client.send(Photos.upload(image, index: 0, to: review.id)).value.url
        let disk = folder.appending(path: "images")
        _ = try await ImageLoader(client: client, diskCache: disk).load(url).value
        other.stop()

        let again = try await ImageLoader(client: client, diskCache: disk).load(url).value

        XCTAssertEqual(again.data, image)
    }
}
