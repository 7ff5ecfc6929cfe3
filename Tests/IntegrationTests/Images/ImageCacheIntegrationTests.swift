@testable import BatonImages
import Dispatch
import Foundation
import TestSupport
import XCTest

/// `ImageLoader`'s caches against DemoServer: memory by bytes with the least recently used
/// dropped, the disk by bytes, and both holding an image by the time its load fulfils.
final class ImageCacheIntegrationTests: ImageTestCase {
    /// DemoServer's photos come with an `ETag` and `Cache-Control: no-cache`: the file on disk is
    /// used once the server has said it is current.
    func test_theDiskCache_servesAFreshLoader_afterA304() async throws {
        let disk = folder.appending(path: "images")
        _ = try await ImageLoader(client: client, diskCache: disk).load(photoURL).value

        let fromDisk = try await ImageLoader(client: client, diskCache: disk).load(photoURL).value

        XCTAssertEqual(fromDisk, LoadedImage(data: image, contentType: "image/jpeg"))
        let counts = try await stats()
        XCTAssertEqual(counts.requests["GET /photos/:id"], 2)
        XCTAssertEqual(counts.notModified, 1)
    }

    func test_theMemoryCache_keepsAtMostItsLimit_droppingTheLeastRecentlyUsed() async throws {
        let urls = try await postPhotos((0..<3).map { Multipart.imageBytes(count: 40_000 + $0) })
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

    func test_theDiskCache_keepsAtMostItsLimit() async throws {
        let urls = try await postPhotos((0..<3).map { Multipart.imageBytes(count: 40_000 + $0) })
        let disk = folder.appending(path: "images")
        let loader = ImageLoader(client: client, diskCache: disk, diskLimit: 100_000)

        for url in urls { _ = try await loader.load(url).value }

        let files = try FileManager.default.contentsOfDirectory(at: disk, includingPropertiesForKeys: [.fileSizeKey])
        let bytes = try files.reduce(0) { $0 + (try $1.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0) }
        XCTAssertLessThanOrEqual(bytes, 100_000, "\(files.count) files")
        // Two of the three fit: a fresh loader (with room to spare) finds those on disk, and
        // the server says they are current.
        let before = try await stats().notModified
        let fresh = ImageLoader(client: client, diskCache: disk)
        for url in urls { _ = try await fresh.load(url).value }
        let after = try await stats().notModified
        XCTAssertEqual(after - before, 2)
    }

    func test_aLoadedImage_isInTheMemoryAndDiskCaches_beforeItsLoadFulfils() async throws {
        let release = DispatchSemaphore(value: 0)
        let held = try makeClient { $0.adapters = [HeldAdapter(release: release)] }
        let disk = folder.appending(path: "images")
        let loader = ImageLoader(client: held, diskCache: disk)
        let url = photoURL!

        // The handler is in place before the request goes, so it runs as the load fulfils.
        let seen = loader.load(url).success { _ in
            (inMemory: loader.cachedImage(for: url) != nil, onDisk: (try? FileManager.default.contentsOfDirectory(atPath: disk.path).count) ?? 0)
        }
        release.signal()
        let caches = try await seen.value

        XCTAssertTrue(caches.inMemory)
        XCTAssertEqual(caches.onDisk, 1)
    }
}
