import Foundation

/// Why a ``FileEntityStore`` could not do what it was asked: which entity, and the reason.
///
/// A struct with a ``kind``, like Baton's other errors, so that kinds can be added without
/// breaking a `switch`.
public struct EntityStoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong. Compare with `==`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// A record could not be written (no space, no permission, the folder is a file).
        public static let unwritable = Kind(name: "unwritable")
        /// A record exists but could not be read (no permission).
        public static let unreadable = Kind(name: "unreadable")
        /// An id that cannot name a record: empty, or longer than 200 bytes once escaped.
        public static let invalidID = Kind(name: "invalidID")
        /// A value could not be encoded as JSON.
        public static let unencodable = Kind(name: "unencodable")

        /// The kind's name, as in `unwritable`.
        public var description: String { name }
    }

    /// What went wrong.
    public let kind: Kind
    /// The entity's type, by its ``StoredEntity/storeName``.
    public let entity: String
    /// The entity's id, when the error is about one.
    public let id: String?
    /// What the system or the encoder said.
    public let reason: String

    package init(_ kind: Kind, entity: String, id: String?, reason: String) {
        self.kind = kind
        self.entity = entity
        self.id = id
        self.reason = reason
    }

    /// A sentence, as in `Book 7 could not be written: No space left on device.`
    public var description: String {
        let subject = id.map { "\(entity) \($0)" } ?? "\(entity) records"
        switch kind {
        case .unwritable: return "\(subject) could not be written: \(reason)."
        case .unreadable: return "\(subject) could not be read: \(reason)."
        case .invalidID: return "\(subject) cannot be stored: \(reason)."
        case .unencodable: return "\(subject) could not be encoded: \(reason)."
        default: return "\(subject): \(kind): \(reason)."
        }
    }
}

// `localizedDescription` (and so any UI or log that shows it) is the sentence, rather than
// Foundation's "The operation could not be completed. (Baton.EntityStoreError error 2.)".
extension EntityStoreError: LocalizedError {
    /// The error's sentence: see ``description``.
    public var errorDescription: String? { description }
}
