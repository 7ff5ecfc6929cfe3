import Foundation

/// One call of an API: where it goes, what it sends, and what it answers.
///
/// Describe each call once and send it with ``Client/send(_:)``. Only ``Response``, ``method``
/// and ``path`` are required; everything else has a default. Two styles read well.
///
/// One type per call:
/// ```swift
/// struct FindOrders: Endpoint {
///     typealias Response = [Order]
///     var name: String
///     var path: EndpointPath { "order_search" }
///     var query: [URLQueryItem] { [URLQueryItem(name: "name", value: name)] }
/// }
/// ```
///
/// An enum of cases, when the calls share a response type, or a namespace of ``Request``s when
/// they do not:
/// ```swift
/// enum Reviews {
///     static func post(facilityID: Int, content: String, rating: Int) -> Request<Review> {
///         Request(.post, "facilities/\(facilityID)/reviews", body: .json(NewReview(content: content, rating: rating)))
///     }
///     static func get(id: Int) -> Request<Review> { Request(.get, "reviews/\(id)") }
/// }
/// ```
///
/// Responses decode as JSON when ``Response`` is `Decodable`; `Data` and `String` receive the
/// body as it is, and `Void` ignores it (for `204 No Content` and other empty responses).
public protocol Endpoint: Sendable {
    /// What the call answers, once decoded.
    associatedtype Response: Sendable

    /// The HTTP method. Defaults to `GET`.
    var method: HTTPMethod { get }
    /// The path relative to the client's base URL; interpolated values are escaped as single
    /// segments (see ``EndpointPath``).
    var path: EndpointPath { get }
    /// Query items, percent-encoded by Baton. Defaults to none.
    var query: [URLQueryItem] { get }
    /// Header fields of this call, added over the client's defaults. Defaults to none.
    var headers: [String: String] { get }
    /// The body. Defaults to ``RequestBody/none``. A `GET` or `HEAD` carries none, on every
    /// transport: a body given to one fails the call before anything is sent (an empty one goes
    /// as none).
    var body: RequestBody { get }
    /// The status codes that count as success. Defaults to `200..<300`.
    var acceptableStatusCodes: Range<Int> { get }
    /// The media types the response may have (`type/subtype`, `type/*` or `*/*`). Defaults to
    /// what ``decode(_:with:)`` reads: JSON for `Decodable` responses, anything otherwise. An
    /// empty `204` passes whatever this says.
    var acceptableContentTypes: [String] { get }
    /// The decoder for this call's JSON, or `nil` for the client's. Defaults to `nil`.
    var decoder: JSONDecoder? { get }
    /// Whether the promise's progress follows the response's bytes as they arrive. Defaults to
    /// `false`: a request without a body then reports the bytes received once, when the whole
    /// response is in, which spares a progress report per piece of a response that nobody
    /// watches. Turn it on for large downloads; a request with a body reports bytes sent, then
    /// received, as they go, whatever this says.
    var tracksDownloadProgress: Bool { get }
    /// The key sent as `Idempotency-Key` (the IETF httpapi draft, as payment APIs use it), so
    /// that a server that honours it acts on this call once however many times it arrives; `nil`
    /// (the default) sends none. Return the same key for as long as the call means the same thing
    /// (store it in the endpoint's value, made once): it is sent again, unchanged, with every
    /// retry and every re-send of this value. A call carrying one is retried by
    /// ``RetryPolicy`` like an idempotent method. See ``IdempotencyKey``.
    var idempotencyKey: String? { get }
    /// Turns the validated response into ``Response``.
    func decode(_ response: HTTPResponse, with decoder: JSONDecoder) throws -> Response
}

extension Endpoint {
    /// Defaults to `GET`.
    public var method: HTTPMethod { .get }
    /// Defaults to no query items.
    public var query: [URLQueryItem] { [] }
    /// Defaults to none: only the client's header fields are sent.
    public var headers: [String: String] { [:] }
    /// Defaults to ``RequestBody/none``.
    public var body: RequestBody { .none }
    /// Defaults to `200..<300`.
    public var acceptableStatusCodes: Range<Int> { 200..<300 }
    /// Defaults to `*/*`: any content type.
    public var acceptableContentTypes: [String] { ["*/*"] }
    /// Defaults to `nil`: the client's decoder.
    public var decoder: JSONDecoder? { nil }
    /// Defaults to `false`: bytes received are reported once, when the response is complete.
    public var tracksDownloadProgress: Bool { false }
    /// Defaults to `nil`: no `Idempotency-Key` is sent.
    public var idempotencyKey: String? { nil }
}

// The defaults for each kind of response are those of `ResponseKind`, which `Request` uses too.

extension Endpoint where Response: Decodable {
    /// JSON: `application/json` and `application/*+json` (such as `application/problem+json`).
    public var acceptableContentTypes: [String] { ResponseKind<Response>.json.acceptableContentTypes }

    /// Decodes the body as JSON with `decoder`.
    public func decode(_ response: HTTPResponse, with decoder: JSONDecoder) throws -> Response {
        try ResponseKind<Response>.json.decode(response, decoder)
    }
}

extension Endpoint where Response == Data {
    /// Any content type: the body is returned as it is.
    public var acceptableContentTypes: [String] { ResponseKind<Data>.data.acceptableContentTypes }

    /// Returns the body's bytes as they arrived.
    public func decode(_ response: HTTPResponse, with decoder: JSONDecoder) throws -> Data {
        try ResponseKind<Data>.data.decode(response, decoder)
    }
}

extension Endpoint where Response == String {
    /// Any content type: the body is read as UTF-8 text.
    public var acceptableContentTypes: [String] { ResponseKind<String>.text.acceptableContentTypes }

    /// Decodes the body as UTF-8; invalid bytes are an error rather than silently replaced.
    public func decode(_ response: HTTPResponse, with decoder: JSONDecoder) throws -> String {
        try ResponseKind<String>.text.decode(response, decoder)
    }
}

extension Endpoint where Response == Void {
    /// Ignores the body.
    public func decode(_ response: HTTPResponse, with decoder: JSONDecoder) throws {
        try ResponseKind<Void>.nothing.decode(response, decoder)
    }
}

extension Endpoint where Response == HTTPResponse {
    /// Any content type: the response is handed back as it is.
    public var acceptableContentTypes: [String] { ResponseKind<HTTPResponse>.whole.acceptableContentTypes }

    /// Returns the response itself: status, headers and body.
    public func decode(_ response: HTTPResponse, with decoder: JSONDecoder) throws -> HTTPResponse {
        try ResponseKind<HTTPResponse>.whole.decode(response, decoder)
    }
}
