import Foundation
import BatonClient

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
