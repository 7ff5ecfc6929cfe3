import Foundation

/// Where an image shown from a URL string stands, for a view to pick what to draw: a "no image"
/// picture, a "loading" one, the image, or an "error" one.
///
/// The four states of placeholder-based image views; an enum, as that set is closed.
public enum ImageState: Sendable {
    /// The URL string is empty: there is no image to load.
    case noImage
    /// The image is being fetched (from the disk cache or the network).
    case loading
    /// The image's bytes arrived.
    case loaded(LoadedImage)
    /// The image could not be had: the error says why.
    case failed(any Error)
}
