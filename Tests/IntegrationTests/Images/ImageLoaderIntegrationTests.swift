@testable import BatonSupport
@testable import BatonClient
@testable import BatonImages
import Dispatch
import Foundation
import TestSupport
import XCTest

/// `ImageLoader` against DemoServer: placeholder states, one request per image however many
/// ask, cancellation of one load among many, and which client (and credentials) fetches what.
/// The caches are in ImageCacheIntegrationTests.
final class ImageLoaderIntegrationTests: ImageTestCase {
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

    func test_anImageOnTheClientsOriginOutsideItsBaseURL_goesThroughTheClientsSettings() async throws {
        let api = try makeClient { configuration in
            configuration.baseURL = self.server.baseURL.appending(path: "v1/")
            configuration.adapters = [HeadersAdapter(["X-App-Version": "2.4.1"])]
        }
        let loader = ImageLoader(client: api)

        // DemoServer's echo answers with the headers it received.
        let echoed = try await loader.load("/_demo/echo").value

        let headers = try JSONSerialization.jsonObject(with: echoed.data) as? [String: Any]
        let received = headers?["headers"] as? [String: String]
        XCTAssertEqual(received?["authorization"], "Bearer \(token!)")
        XCTAssertEqual(received?["x-app-version"], "2.4.1")
    }

    func test_aCancelledLoad_reportsNoFurtherState_whileAnotherLoadOfItsImageEndsLoaded() async throws {
        let release = DispatchSemaphore(value: 0)
        let held = try makeClient { $0.adapters = [HeldAdapter(release: release)] }
        let loader = ImageLoader(client: held)
        let cancelledStates = Recorder<String>()
        let otherStates = Recorder<String>()

        let cancelled = loader.load(photoURL) { cancelledStates.append(Self.name(of: $0)) }
        let other = loader.load(photoURL) { otherStates.append(Self.name(of: $0)) }
        cancelled.cancel()
        release.signal()
        _ = try await other.value

        XCTAssertEqual(otherStates.events, ["loading", "loaded 50000 image/jpeg"])
        XCTAssertEqual(cancelledStates.events, ["loading"], "nothing after the cancel, not even when the image arrived")
    }
}
