import Foundation

/// A ``CredentialStore`` could not load, save or clear credentials.
///
/// Its description is a sentence naming the file and what went wrong, such as
/// `The credentials file /home/me/.app/credentials.json is corrupt: it does not hold credentials
/// as Baton saves them.` It never contains a token.
public struct CredentialStoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong. Compare with `==`, or `switch` with a `default`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// The file exists but holds something other than saved credentials.
        public static let corrupt = Kind(name: "corrupt")
        /// The file exists but cannot be read (permissions, I/O).
        public static let unreadable = Kind(name: "unreadable")
        /// The credentials cannot be saved or deleted (permissions, a full disk).
        public static let unwritable = Kind(name: "unwritable")

        /// The kind's name, as in `corrupt`.
        public var description: String { name }
    }

    /// What went wrong.
    public let kind: Kind
    /// The file concerned, for file-backed stores.
    public let url: URL?
    /// What is wrong, as a sentence's predicate after the file's name: `is corrupt: ...`.
    public let reason: String

    /// An error of `kind` about the file at `url`, because of `reason`.
    public init(_ kind: Kind, url: URL?, reason: String) {
        self.kind = kind
        self.url = url
        self.reason = reason
    }

    /// A sentence, as in `The credentials file /tmp/c.json cannot be read (permission denied).`
    public var description: String {
        let file = url.map { "The credentials file \($0.path)" } ?? "The credential store"
        return "\(file) \(reason)."
    }
}

// `localizedDescription` (and so any UI or log that shows it) is the sentence, rather than
// Foundation's "The operation could not be completed. (Baton.CredentialStoreError error 2.)".
extension CredentialStoreError: LocalizedError {
    /// The error's sentence: see ``description``.
    public var errorDescription: String? { description }
}
