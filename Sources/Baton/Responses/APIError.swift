import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every way a call made through ``Client`` can fail. Each case names the request (`POST
/// /facilities/1/reviews`) and `description` reads as a sentence a developer can act on:
///
/// ```
/// POST /facilities/1/reviews failed: the server answered 422 Unprocessable Content ("rating must be between 1 and 5").
/// GET /orders/7 returned a body that does not decode as Order: key "subtotal" is missing (body starts with {"id":7,...).
/// ```
public enum APIError: Error, Sendable, CustomStringConvertible {
    /// The request could not be built: `field` says which part (`path`, `method`, `body`, or
    /// `header "Name"`) and `reason` why. Nothing was sent.
    case invalidRequest(RequestSummary, field: String, reason: String)
    /// The request did not get a response: a connection, DNS, TLS or timeout failure, with the
    /// `URLError` code that says which.
    case transport(RequestSummary, URLError)
    /// The server answered with a status code the endpoint does not accept. `message` is the
    /// server's own (the `message` of a JSON error body), if it sent one.
    case unacceptableStatus(RequestSummary, HTTPResponse, message: String?)
    /// The response's `Content-Type` is not one the endpoint accepts (`nil`: none was sent).
    case unacceptableContentType(RequestSummary, HTTPResponse, contentType: String?, acceptable: [String])
    /// The body does not decode as the endpoint's response type.
    case decodingFailed(RequestSummary, HTTPResponse, type: String, codingPath: String, reason: String)
    /// The request was cancelled before it finished.
    case cancelled(RequestSummary)

    /// The request this error is about.
    public var request: RequestSummary {
        switch self {
        case .invalidRequest(let request, _, _), .transport(let request, _),
             .unacceptableStatus(let request, _, _), .unacceptableContentType(let request, _, _, _),
             .decodingFailed(let request, _, _, _, _), .cancelled(let request):
            return request
        }
    }

    /// The response, when the server sent one.
    public var response: HTTPResponse? {
        switch self {
        case .unacceptableStatus(_, let response, _), .unacceptableContentType(_, let response, _, _),
             .decodingFailed(_, let response, _, _, _):
            return response
        case .invalidRequest, .transport, .cancelled:
            return nil
        }
    }

    /// The response's status code, when the server sent one.
    public var statusCode: Int? { response?.statusCode }

    /// One sentence naming the request and what went wrong, as in `GET /orders/7 was cancelled.`
    public var description: String {
        switch self {
        case .invalidRequest(let request, let field, let reason):
            return "\(request) could not be sent: the \(field) is invalid (\(reason))."
        case .transport(let request, let error):
            return "\(request) failed before a response arrived: \(Self.describe(error))."
        case .unacceptableStatus(let request, let response, let message):
            let detail = message.map { " (\"\($0)\")" } ?? (response.body.isEmpty ? "" : " (body starts with \(response.bodyPreview()))")
            return "\(request) failed: the server answered \(response.statusCode) \(response.reasonPhrase)\(detail)."
        case .unacceptableContentType(let request, _, let contentType, let acceptable):
            let received = contentType.map { "\"\($0)\"" } ?? "no Content-Type"
            return "\(request) returned \(received), but the endpoint accepts \(acceptable.joined(separator: ", "))."
        case .decodingFailed(let request, let response, let type, let codingPath, let reason):
            let at = codingPath.isEmpty ? "" : " at \(codingPath)"
            return "\(request) returned a body that does not decode as \(type): \(reason)\(at) (body starts with \(response.bodyPreview()))."
        case .cancelled(let request):
            return "\(request) was cancelled."
        }
    }

    private static func describe(_ error: URLError) -> String {
        let name: String
        switch error.code {
        case .timedOut: name = "the request timed out"
        case .cannotConnectToHost: name = "could not connect to the host"
        case .cannotFindHost: name = "the host name did not resolve"
        case .networkConnectionLost: name = "the connection was lost"
        case .notConnectedToInternet: name = "there is no network connection"
        case .badServerResponse: name = "the server's response was not valid HTTP"
        case .secureConnectionFailed: name = "the TLS connection failed"
        case .badURL, .unsupportedURL: name = "the URL is not valid"
        default: name = "URLError \(error.code.rawValue)"
        }
        return "\(name) (URLError.Code \(error.code.rawValue))"
    }
}

extension APIError: CancellationMarking {
    var marksCancellation: Bool {
        if case .cancelled = self { return true }
        return false
    }
}
