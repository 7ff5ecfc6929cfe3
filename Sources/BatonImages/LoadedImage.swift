import Foundation

/// An image's bytes and what they are. Turning them into a platform image (`UIImage(data:)`,
/// `NSImage(data:)`) is the app's part.
public struct LoadedImage: Sendable, Equatable {
    /// The image file's bytes, as the server sent them.
    public let data: Data
    /// The `Content-Type` it came with, such as `image/jpeg`, if any.
    public let contentType: String?

    /// An image of `data`, of `contentType`: for previews and tests.
    public init(data: Data, contentType: String?) {
        self.data = data
        self.contentType = contentType
    }
}
