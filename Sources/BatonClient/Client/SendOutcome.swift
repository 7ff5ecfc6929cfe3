/// How one call of ``Client/sendEach(_:concurrency:)`` ended: its endpoint, to send again if it
/// failed, and its result.
public struct SendOutcome<E: Endpoint>: Sendable {
    /// The endpoint that was sent: pass the failed ones to ``Client/sendEach(_:concurrency:)``
    /// again to retry them later.
    public let endpoint: E
    /// The decoded response, or the error the call failed with (a cancellation included).
    public let result: Result<E.Response, any Error>

    /// The response, if the call succeeded.
    public var value: E.Response? { try? result.get() }

    /// The error, if the call failed.
    public var error: (any Error)? {
        if case .failure(let error) = result { return error }
        return nil
    }
}

extension SendOutcome: CustomStringConvertible {
    /// `succeeded: <value>` or `failed: <error>`; the endpoint is left out, as a failure's error
    /// already names its request.
    public var description: String {
        switch result {
        case .success(let value): return "succeeded: \(value)"
        case .failure(let error): return "failed: \(error)"
        }
    }
}
