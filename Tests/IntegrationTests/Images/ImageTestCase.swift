@testable import BatonClient
import Foundation
import TestSupport
import XCTest

/// The base of the image loader's tests: a photo of 50,000 bytes on the server before each test,
/// at `photoURL`.
class ImageTestCase: FolderTestCase {
    private(set) var image: Data!
    private(set) var photoURL: String!

    override func setUp() async throws {
        try await super.setUp()
        image = Multipart.imageBytes(count: 50_000)
        photoURL = try await postPhotos([image]).first
    }

    /// Posts `images` as photos of a new review and returns their URLs (paths on the server).
    func postPhotos(_ images: [Data]) async throws -> [String] {
        let review = try await client.send(Reviews.post(facilityID: 1, content: "画像", rating: 5)).value
        var urls: [String] = []
        for (index, bytes) in images.enumerated() {
            var form = MultipartForm()
            form.append(bytes, name: "photo", filename: "\(index).jpg", contentType: "image/jpeg")
            urls.append(try await client.send(Request<Photo>(.post, "reviews/\(review.id)/photos", body: .multipart(form))).value.url)
        }
        return urls
    }
}
