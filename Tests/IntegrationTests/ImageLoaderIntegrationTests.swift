import Baton
import BatonLocking
import Dispatch
import Foundation
import TestSupport
import XCTest

/// `ImageLoader` against DemoServer: placeholder states, one request per image however many
/// ask, cancellation of one load among many, and the memory and disk caches.
final class ImageLoaderIntegrationTests: FolderTestCase {
    private var image: Data!
    private var photoURL: String!

    override func setUp() async throws {
        try await super.setUp()
        image = Multipart.imageBytes(count: 50_000)
        let review = try await client.send(Reviews.post(facilityID: 1, content: "画像", rating: 5)).value
        var form = MultipartForm()
        form.append(image, name: "photo", filename: "a.jpg", contentType: "image/jpeg")
        photoURL = try await client.send(Request<Photo>(.post, "reviews/\(review.id)/photos", body: .multipart(form))).value.url
    }

    /// The states `load` reported, in order, once its promise settled.
    private func states(loading urlString: String, with loader: ImageLoader) async -> [String] {
        let states = Locked<[String]>([])
        _ = try? await loader.load(urlString) { state in
            states.withLock { $0.append(Self.name(of: state)) }
        }.value
        return states.value
    }

    private static func name(of state: ImageState) -> String {
        switch state {
        case .noImage: return "noImage"
        case .loading: return "loading"
        case .loaded(let image): return "loaded \(image.data.count) \(image.contentType ?? "-")"
        case .failed(let error): return "failed \((error as? APIError)?.statusCode ?? 0)"
        }
    }

    func test_states_noImage_loadingThenLoaded_loadingThenFailed_andLoadedAtOnceFromMemory() async throws {
        let loader = ImageLoader(client: client)

        let empty = await states(loading: "", with: loader)
        let first = await states(loading: photoURL, with: loader)
        let again = await states(loading: photoURL, with: loader)
        let missing = await states(loading: "/photos/999", with: loader)

        XCTAssertEqual(empty, ["noImage"])
        XCTAssertEqual(first, ["loading", "loaded 50000 image/jpeg"])
        XCTAssertEqual(again, ["loaded 50000 image/jpeg"])
        XCTAssertEqual(missing, ["loading", "failed 404"])
        let requests = try await requestCount("GET /photos/:id")
        XCTAssertEqual(requests, 2, "the second load of the photo came from memory")
    }

    func test_fiftyLoadsOfOneImage_makeOneRequest_andCancellingFortyNineStillDeliversTheLast() async throws {
        let release = DispatchSemaphore(value: 0)
        let held = try makeClient { $0.adapters = [HeldAdapter(release: release)] }
        let loader = ImageLoader(client: held)

        let loads = (0..<50).map { _ in loader.load(photoURL) }
        loads.dropLast().forEach { $0.cancel() }
        // One permit per load: however many requests were made, none waits forever.
        for _ in loads { release.signal() }
        let last = try await loads.last!.value

        XCTAssertEqual(last.data, image)
        let requests = try await requestCount("GET /photos/:id")
        XCTAssertEqual(requests, 1)
        for cancelled in loads.dropLast() { XCTAssertEqual(cancelled.state, .cancelled) }

        // Fifty more with an empty memory cache, none cancelled: one more request.
        let fresh = ImageLoader(client: held)
        let all = (0..<50).map { _ in fresh.load(photoURL) }
        for _ in all { release.signal() }
        for load in all { _ = try await load.value }
        let after = try await requestCount("GET /photos/:id")
        XCTAssertEqual(after, 2)
    }

    func test_cancellingEveryLoad_cancelsTheRequest_andALaterLoadStartsAnew() async throws {
        let release = DispatchSemaphore(value: 0)
        let held = try makeClient { $0.adapters = [HeldAdapter(release: release)] }
        let loader = ImageLoader(client: held)

        let loads = (0..<3).map { _ in loader.load(photoURL) }
        loads.forEach { $0.cancel() }
        for _ in 0...loads.count { release.signal() }
        let again = loader.load(photoURL)
        let image = try await again.value

        XCTAssertEqual(image.data, self.image)
        let requests = try await requestCount("GET /photos/:id")
        XCTAssertEqual(requests, 1, "the cancelled request never went out")
    }

    func test_theDiskCache_servesAFreshLoader_withoutARequest() async throws {
        let disk = folder.appending(path: "images")
        _ = try await ImageLoader(client: client, diskCache: disk).load(photoURL).value

        let fromDisk = try await ImageLoader(client: client, diskCache: disk).load(photoURL).value

        XCTAssertEqual(fromDisk, LoadedImage(data: image, contentType: "image/jpeg"))
        let requests = try await requestCount("GET /photos/:id")
        XCTAssertEqual(requests, 1)
    }

    func test_theMemoryCache_keepsAtMostItsLimit_droppingTheLeastRecentlyUsed() async throws {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "三枚", rating: 5)).value
        var urls: [String] = []
        for index in 0..<3 {
            var form = MultipartForm()
            form.append(Multipart.imageBytes(count: 40_000 + index), name: "photo", filename: "\(index).jpg", contentType: "image/jpeg")
            urls.append(try await client.send(Request<Photo>(.post, "reviews/\(review.id)/photos", body: .multipart(form))).value.url)
        }
        let loader = ImageLoader(client: client, memoryLimit: 100_000)

        _ = try await loader.load(urls[0]).value
        _ = try await loader.load(urls[1]).value
        _ = loader.cachedImage(for: urls[0])           // used: urls[1] is now the oldest
        _ = try await loader.load(urls[2]).value

        XCTAssertNotNil(loader.cachedImage(for: urls[0]))
        XCTAssertNil(loader.cachedImage(for: urls[1]))
        XCTAssertNotNil(loader.cachedImage(for: urls[2]))
        XCTAssertNotNil(loader.cachedImage(for: server.baseURL.appending(path: urls[2]).absoluteString), "an absolute URL is the same image")
    }

    func test_anImageOnAnotherOrigin_isFetchedWithoutTheAppsCredentials() async throws {
        let other = try Self.fixture("B").server
        let loader = ImageLoader(client: client)

        // DemoServer's echo answers with the headers it received.
        let echoed = try await loader.load(other.baseURL.appending(path: "_demo/echo").absoluteString).value
        let onOwnServer = try await loader.load("/_demo/echo").value

        let headers = { (data: Data) in (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["headers"] as? [String: String] }
        XCTAssertNil(try headers(echoed.data)?["authorization"], "the token of server A never reaches server B")
        XCTAssertEqual(try headers(onOwnServer.data)?["authorization"], "Bearer \(token!)")
    }
}
