import Foundation

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

/// How one upload of ``UploadQueue/send(_:concurrency:)`` ended.
public struct UploadOutcome: Sendable {
    /// The upload as it was when sent.
    public let upload: PendingUpload
    /// The server's response, or why the upload failed (a cancellation included).
    public let result: Result<HTTPResponse, any Error>

    /// The server's response, if the upload succeeded.
    public var response: HTTPResponse? { try? result.get() }

    /// The error, if the upload failed; the upload then stays recorded.
    public var error: (any Error)? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// The response's JSON body decoded as `type`, for a successful upload.
    public func decoded<T: Decodable>(as type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(T.self, from: result.get().body)
    }
}
