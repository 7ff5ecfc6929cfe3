import Foundation

/// What a call whose body does not go to memory asks besides its endpoint: a download
/// (``Client/download(_:to:options:)``) or a stream's connection (``Client/events(_:options:each:)-(_,_,(E.Response)->Void)``).
///
/// The endpoint is sent as it is; the call adds the destination's fields, validates against the
/// destination's content types, and makes its value from the body with ``make`` instead of
/// decoding it with the endpoint.
struct CallDestination<Output: Sendable>: Sendable {
    /// Where the transport puts the body.
    let body: BodyDestination
    /// Fields the destination sets: a stream's `Accept` (unless the endpoint names one) and its
    /// `Last-Event-ID` when it reconnects.
    var fields: [String: String] = [:]
    /// Replaces the endpoint's ``Endpoint/acceptableContentTypes``; `nil` keeps them.
    var acceptableContentTypes: [String]?
    /// Whether the transport reports the body's bytes as they arrive: a download's progress is
    /// its bytes, a stream's its elements.
    var tracksDownloadProgress: Bool
    /// The call's value, from a validated response: a download's file moved into place, a
    /// stream's end.
    let make: @Sendable (HTTPResponse) throws -> Output
}

/// What a call makes of a validated response.
enum CallProduct<E: Endpoint, Output: Sendable>: Sendable {
    /// The endpoint decodes the body, and the value (with the response) becomes the output:
    /// ``Client/send(_:)``, ``Client/fetch(_:offline:)``.
    case decoded(@Sendable (E.Response, HTTPResponse) -> Output)
    /// The body went to a file or a stream, which makes the output.
    case destination(CallDestination<Output>)
}
