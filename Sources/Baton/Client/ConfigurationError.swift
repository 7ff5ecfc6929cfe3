/// Why a ``Client`` could not be made from its configuration: the base URL cannot work.
///
/// Thrown by the client's initializers, so that a base URL such as `"localhost"` is refused
/// where it is written, not when the first call fails.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What is wrong. Compare with `==`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// The base URL has no scheme, a scheme other than http or https, or no host.
        public static let invalidBaseURL = Kind(name: "invalidBaseURL")

        /// The kind's name.
        public var description: String { name }
    }

    /// What is wrong.
    public let kind: Kind
    /// The setting at fault, as written (a password in it hidden).
    public let value: String
    /// Why it cannot work, and what to write instead.
    public let reason: String

    /// A sentence, as in `"localhost" cannot be a base URL: it has no scheme; write https://localhost/ or http://localhost/.`
    public var description: String { "\"\(value)\" cannot be a base URL: \(reason)." }
}

extension ConfigurationError {
    /// Checks that `url` can be a client's base URL.
    static func validate(baseURL url: URL) throws(ConfigurationError) {
        func refuse(_ reason: String) -> ConfigurationError {
            ConfigurationError(kind: .invalidBaseURL, value: shown(url), reason: reason)
        }
        guard let scheme = url.scheme?.lowercased() else {
            throw refuse("it has no scheme; write https://\(shown(url))/ or http://\(shown(url))/")
        }
        guard scheme == "http" || scheme == "https" else {
            throw refuse("its scheme is \(scheme), and Baton speaks http and https only")
        }
        guard let host = url.host, !host.isEmpty else { throw refuse("it has no host") }
    }

    /// `url` as it may appear in a sentence: a password in it is hidden.
    private static func shown(_ url: URL) -> String {
        guard let password = url.password, !password.isEmpty,
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.password = "xxx"
        return components.string ?? "(a URL with a password)"
    }
}

// `localizedDescription` (and so any UI or log that shows it) is the sentence, rather than
// Foundation's "The operation could not be completed. (Baton.ConfigurationError error 2.)".
extension ConfigurationError: LocalizedError {
    /// The error's sentence: see ``description``.
    public var errorDescription: String? { description }
}
