import Foundation

/// Why an ``ImageLoader`` gave no image without asking the network.
public struct ImageLoaderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong. Compare with `==`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// The URL string was empty: there is no image (the state is ``ImageState/noImage``).
        public static let noImage = Kind(name: "noImage")
        /// The URL string is not a URL the loader can fetch (not http or https, or malformed).
        public static let invalidURL = Kind(name: "invalidURL")

        /// The kind's name.
        public var description: String { name }
    }

    /// What went wrong.
    public let kind: Kind
    /// The URL string given.
    public let urlString: String

    /// A sentence, as in `"ftp://x/a.png" is not an http or https URL.`
    public var description: String {
        switch kind {
        case .noImage: return "there is no image: the URL string is empty"
        default: return "\"\(urlString)\" is not an http or https URL, nor a path on the client's server"
        }
    }
}

// `localizedDescription` (and so any UI or log that shows it) is the sentence, rather than
// Foundation's "The operation could not be completed. (Baton.ImageLoaderError error 2.)".
extension ImageLoaderError: LocalizedError {
    /// The error's sentence: see ``description``.
    public var errorDescription: String? { description }
}
