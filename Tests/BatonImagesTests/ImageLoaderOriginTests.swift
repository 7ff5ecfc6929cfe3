@testable import BatonClient
@testable import BatonImages
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
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

    /// The image loader treats an image written with another case and the default port as on the
    /// client's origin, as redirects and the authenticator do.
    func test_theImageLoader_takesHTTPHost80_forTheClientsOriginHttpHost() async throws {
        let transport = StubTransport { request, _ in
            HTTPResponse(statusCode: 200, headers: ["Content-Type": "image/png"], body: Data([1]))
        }
        let client = try Client(baseURL: URL(string: "http://host/api/")!, transport: transport) { $0.headers["Authorization"] = "Bearer t" }
        let loader = ImageLoader(client: client)

        _ = try await loader.load("HTTP://Host:80/photos/1.png").value

        XCTAssertEqual(transport.requests.last?.url?.absoluteString, "http://host/photos/1.png")
        XCTAssertEqual(transport.requests.last?.value(forHTTPHeaderField: "Authorization"), "Bearer t")
    }
}
