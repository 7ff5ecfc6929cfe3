import Foundation

/// An ``Endpoint`` described by its values, for calls that do not merit a type of their own.
///
/// ```swift
/// let order = client.send(Request<Order>(.get, "orders/\(id)"))
/// let done = client.send(Request<Void>(.delete, "reviews/\(id)"))
/// ```
public struct Request<Response: Sendable>: Endpoint {
    /// The HTTP method.
    public var method: HTTPMethod
    /// The path relative to the client's base URL; interpolated values are escaped as single segments.
    public var path: EndpointPath
    /// Query items, percent-encoded by Baton.
    public var query: [URLQueryItem]
    /// Header fields of this call, added over the client's defaults.
    public var headers: [String: String]
    /// The body.
    public var body: RequestBody
    /// The status codes that count as success. Default `200..<300`.
    public var acceptableStatusCodes: Range<Int> = 200..<300
    /// The media types the response may have: JSON for a `Decodable` response, anything otherwise, as
    /// the initializer sets them.
    public var acceptableContentTypes: [String]
    /// The decoder for this call's JSON, or `nil` (the default) for the client's.
    public var decoder: JSONDecoder?
    /// Whether progress follows the response's bytes as they arrive; `false` (the default)
    /// reports them once, complete. See ``Endpoint/tracksDownloadProgress``.
    ///
    /// ```swift
    /// var download = Request<Data>(.get, "photos/\(id)/file")
    /// download.tracksDownloadProgress = true
    /// client.send(download).progress { print($0) }
    /// ```
    public var tracksDownloadProgress = false
    /// The `Idempotency-Key` sent with this call: see ``Endpoint/idempotencyKey``. A `POST` with
    /// a ``RequestBody/multipart(_:)`` body (a photo upload) gets a new key when the request is
    /// made, so that a retry, or sending this same value again after a failure, is acted on once
    /// by a server that honours keys; every other request gets none. Set it to your own key, or
    /// to `nil` to send none.
    ///
    /// ```swift
    /// var review = Request<Review>(.post, "facilities/1/reviews", body: .json(newReview))
    /// review.idempotencyKey = IdempotencyKey.make()   // a POST that is safe to retry
    /// ```
    public var idempotencyKey: String?
    private let decodeBody: @Sendable (HTTPResponse, JSONDecoder) throws -> Response

    private init(
        method: HTTPMethod, path: EndpointPath, query: [URLQueryItem], headers: [String: String],
        body: RequestBody, kind: ResponseKind<Response>
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.acceptableContentTypes = kind.acceptableContentTypes
        self.decodeBody = kind.decode
        self.idempotencyKey = method == .post && body.isMultipart ? IdempotencyKey.make() : nil
    }

    /// Turns the validated response into `Response` as the initializer chose: JSON, the bytes, UTF-8
    /// text, or nothing.
    public func decode(_ response: HTTPResponse, with decoder: JSONDecoder) throws -> Response {
        try decodeBody(response, decoder)
    }
}

extension Request where Response: Decodable {
    /// A call whose response decodes from JSON.
    public init(
        _ method: HTTPMethod = .get, _ path: EndpointPath, query: [URLQueryItem] = [],
        headers: [String: String] = [:], body: RequestBody = .none
    ) {
        self.init(method: method, path: path, query: query, headers: headers, body: body, kind: .json)
    }
}

extension Request where Response == Data {
    /// A call whose response is the body's bytes, of any content type.
    public init(
        _ method: HTTPMethod = .get, _ path: EndpointPath, query: [URLQueryItem] = [],
        headers: [String: String] = [:], body: RequestBody = .none
    ) {
        self.init(method: method, path: path, query: query, headers: headers, body: body, kind: .data)
    }
}

extension Request where Response == String {
    /// A call whose response is the body as UTF-8 text, of any content type.
    public init(
        _ method: HTTPMethod = .get, _ path: EndpointPath, query: [URLQueryItem] = [],
        headers: [String: String] = [:], body: RequestBody = .none
    ) {
        self.init(method: method, path: path, query: query, headers: headers, body: body, kind: .text)
    }
}

extension Request where Response == Void {
    /// A call whose response body is ignored.
    public init(
        _ method: HTTPMethod = .get, _ path: EndpointPath, query: [URLQueryItem] = [],
        headers: [String: String] = [:], body: RequestBody = .none
    ) {
        self.init(method: method, path: path, query: query, headers: headers, body: body, kind: .nothing)
    }
}

extension Request where Response == HTTPResponse {
    /// A call whose response is the ``HTTPResponse`` itself (status, headers, body), of any
    /// content type, validated by status only.
    public init(
        _ method: HTTPMethod = .get, _ path: EndpointPath, query: [URLQueryItem] = [],
        headers: [String: String] = [:], body: RequestBody = .none
    ) {
        self.init(method: method, path: path, query: query, headers: headers, body: body, kind: .whole)
    }
}
