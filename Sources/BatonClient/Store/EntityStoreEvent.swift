import Foundation

/// Something a ``FileEntityStore`` noticed and got past, reported to its `onEvent` handler:
/// so far, a record that could not be decoded, skipped.
public struct EntityStoreEvent: Sendable, CustomStringConvertible {
    /// What happened. Compare with `==`.
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// A record's bytes did not decode as its type (a torn or edited file, or a type whose
        /// fields changed): it was left out of what was read, and left on disk.
        public static let corruptRecordSkipped = Kind(name: "corruptRecordSkipped")

        /// The kind's name.
        public var description: String { name }
    }

    /// What happened.
    public let kind: Kind
    /// The entity's type, by its ``StoredEntity/storeName``.
    public let entity: String
    /// The entity's id, as kept in the record's file name.
    public let id: String
    /// The record's file.
    public let file: URL
    /// Why it was skipped: the decoder's reason.
    public let reason: String

    /// A sentence, as in `Book 7 was skipped: its record does not decode (...)`.
    public var description: String {
        "\(entity) \(id) was skipped: its record at \(file.path) does not decode (\(reason))"
    }
}
