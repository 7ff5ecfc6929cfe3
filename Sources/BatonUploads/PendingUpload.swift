import Foundation
import BatonClient

/// An upload an ``UploadQueue`` has recorded on disk and not yet finished: waiting to be sent, or
/// sent and failed, to be sent again, by this process or a later one.
public struct PendingUpload: Sendable, Identifiable, Equatable {
    /// The record's id, stable across processes.
    public let id: String
    /// The method it is sent with.
    public let method: HTTPMethod
    /// The path it is sent to, relative to the client's base URL (percent-encoded).
    public let path: String
    /// How many times it was sent and failed (cancellations are not counted).
    public let attempts: Int
    /// The last failure's description, if it failed.
    public let lastError: String?
    /// When it was recorded.
    public let createdAt: Date
}
