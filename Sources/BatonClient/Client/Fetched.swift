/// A call's decoded value together with where it came from: the response it was decoded from,
/// or the client's store when the network failed (see ``Client/fetch(_:offline:)``).
///
/// ```swift
/// client.fetch(Request<Book>(.get, "books/1"), offline: .stored(id: 1))
///     .success { fetched in
///         show(fetched.value, stale: fetched.isFromStore)
///         print(fetched.response?.headers["ETag"] ?? "-")
///     }
/// ```
public struct Fetched<Value: Sendable>: Sendable {
    /// The decoded value.
    public let value: Value
    /// The response the value was decoded from (status, headers, body); `nil` when the value
    /// came from the store.
    public let response: HTTPResponse?
    /// The network's failure that made the call response from the store; `nil` for a fresh response.
    public let networkError: (any Error)?

    /// Whether the value came from the store rather than from the server just now.
    public var isFromStore: Bool { response == nil }

    /// Whether the server just said the stored value is current (a `304 Not Modified` to a
    /// conditional request, see ``Client/Configuration/revalidatesStoredValues``): the value is
    /// the stored one, and ``response`` is the `304`.
    public var isRevalidated: Bool { response?.isRevalidation ?? false }

    init(value: Value, response: HTTPResponse) {
        self.value = value
        self.response = response
        self.networkError = nil
    }

    init(stored value: Value, networkError: any Error) {
        self.value = value
        self.response = nil
        self.networkError = networkError
    }
}
