import Foundation

/// What Baton does with a successful body for each kind of response it knows, and which content
/// types that kind accepts: a `Decodable` value from JSON, the raw `Data`, UTF-8 `String`, nothing
/// (`Void`), or the ``HTTPResponse`` itself.
///
/// The one rule behind both ``Endpoint``'s default `decode` and ``Request``'s initializers, so a
/// custom endpoint and a `Request` of the same response type read a body the same way.
struct ResponseKind<Response: Sendable>: Sendable {
    /// The content types a response of this kind may have (`*/*` for any).
    let acceptableContentTypes: [String]
    /// Reads the value out of a response that passed validation.
    let decode: @Sendable (HTTPResponse, JSONDecoder) throws -> Response
}

extension ResponseKind where Response: Decodable {
    /// JSON decoded with the endpoint's decoder (or the client's).
    static var json: Self {
        Self(acceptableContentTypes: Validation.jsonContentTypes) { response, decoder in
            try decoder.decode(Response.self, from: response.body)
        }
    }
}

extension ResponseKind where Response == Data {
    /// The body as it arrived, of any content type.
    static var data: Self {
        Self(acceptableContentTypes: ["*/*"]) { response, _ in response.body }
    }
}

extension ResponseKind where Response == String {
    /// The body as UTF-8 text, of any content type; a body that is not UTF-8 fails to decode.
    static var text: Self {
        Self(acceptableContentTypes: ["*/*"]) { response, _ in
            guard let text = String(data: response.body, encoding: .utf8) else {
                throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "the body is not valid UTF-8"))
            }
            return text
        }
    }
}

extension ResponseKind where Response == Void {
    /// Nothing: only the status counts.
    static var nothing: Self {
        Self(acceptableContentTypes: ["*/*"]) { _, _ in }
    }
}

extension ResponseKind where Response == HTTPResponse {
    /// The response itself: status, headers and body.
    static var whole: Self {
        Self(acceptableContentTypes: ["*/*"]) { response, _ in response }
    }
}
