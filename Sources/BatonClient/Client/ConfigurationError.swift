import Foundation
import BatonWire

/// Why a ``Client`` could not be made from its configuration: the base URL cannot work.
///
/// Thrown by the client's initializers, so that a base URL such as `"localhost:8080"` is refused
/// where it is written, not when the first call fails, with what to write instead:
///
/// ```
/// "localhost:8080" cannot be a base URL: it has no scheme, so "localhost" reads as one;
/// write https://localhost:8080/ or http://localhost:8080/.
/// ```
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
            throw refuse("it has no scheme; \(suggestion(for: shown(url)) ?? "write https://host/ or http://host/")")
        }
        guard scheme == "http" || scheme == "https" else {
            // "localhost:8080" parses as the scheme "localhost" and the path "8080".
            if url.host == nil, let suggestion = suggestion(for: shown(url)) {
                throw refuse("it has no scheme, so \"\(scheme)\" reads as one; \(suggestion)")
            }
            throw refuse("its scheme is \(scheme), and Baton speaks http and https only")
        }
        guard let host = url.host, !host.isEmpty else { throw refuse("it has no host") }
        // A host Baton's transport would refuse on every call (a %00, a control character) is
        // refused once, here, where the mistake is made.
        do throws(URLError) {
            _ = try CanonicalHost(url)
        } catch {
            throw refuse(error.detail.map { $0.replacingOccurrences(of: "the URL \(shown(url)) ", with: "") } ?? "its host cannot be used")
        }
    }

    /// Checks that `text` is a URL that can be a client's base URL, and returns it.
    static func baseURL(from text: String) throws(ConfigurationError) -> URL {
        guard let url = URL(string: text) else {
            // `URL(string:)` refuses "127.0.0.1:8080": a scheme cannot start with a digit.
            let reason = suggestion(for: text).map { "it has no scheme; \($0)" }
                ?? "it is not a URL (spaces and some other characters must be percent-encoded)"
            throw ConfigurationError(kind: .invalidBaseURL, value: shown(text), reason: reason)
        }
        try validate(baseURL: url)
        return url
    }

    /// What to write instead of `text`, a host with or without a port, as in
    /// `write https://localhost:8080/ or http://localhost:8080/`; `nil` when `text` with a
    /// scheme in front is no URL with a host either.
    private static func suggestion(for text: String) -> String? {
        guard !text.contains("//"), let url = URL(string: "http://\(text)"), url.user == nil,
              let host = url.host, !host.isEmpty else { return nil }
        let written = url.path.isEmpty ? "\(text)/" : text
        return "write https://\(written) or http://\(written)"
    }

    /// `url` as it may appear in a sentence.
    private static func shown(_ url: URL) -> String { shown(url.absoluteString) }

    /// `text` as it may appear in a sentence: a password in it hidden, at most 200 characters,
    /// nothing that could end a log line or fake another.
    private static func shown(_ text: String) -> String {
        var text = text
        // user:password@host; a colon and an @ with a slash between them are a port and a path.
        if let at = text.firstIndex(of: "@"), let colon = text[..<at].lastIndex(of: ":"),
           !text[colon..<at].contains("/"), !text[text.index(after: colon)..<at].isEmpty {
            text.replaceSubrange(text.index(after: colon)..<at, with: "xxx")
        }
        return MessageText.escaped(text.count > 200 ? "\(text.prefix(200))…" : text)
    }
}

// `localizedDescription` (and so any UI or log that shows it) is the sentence, rather than
// Foundation's "The operation could not be completed. (Baton.ConfigurationError error 2.)".
extension ConfigurationError: LocalizedError {
    /// The error's sentence: see ``description``.
    public var errorDescription: String? { description }
}
