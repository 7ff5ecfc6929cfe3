@testable import Baton
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import XCTest

/// The image loader's clients for other origins stay bounded, whatever hosts pages name.
final class ImageLoaderOriginTests: XCTestCase {
    func test_imagesFromManyOrigins_keepAtMostTheBoundOfClients_andStillLoad() async throws {
        let transport = StubTransport { _, _ in HTTPResponse(statusCode: 200, headers: ["Content-Type": "image/png"], body: Data([1, 2, 3])) }
        let loader = ImageLoader(client: try Client(baseURL: URL(string: "http://h/")!, transport: transport))
        for index in 0..<(ImageLoader.maximumOriginClients + 10) {
            let image = try await loader.load("http://cdn\(index).example/a.png").value
            XCTAssertEqual(image.data, Data([1, 2, 3]))
        }
        XCTAssertEqual(loader.keptOriginClients, ImageLoader.maximumOriginClients)
        XCTAssertEqual(transport.requests.count, ImageLoader.maximumOriginClients + 10)
    }
}
