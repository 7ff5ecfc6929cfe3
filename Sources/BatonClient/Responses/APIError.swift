import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonPromise
import BatonWire

/// How a call made through ``Client`` failed. It names the request (`POST /facilities/1/reviews`),
/// says what went wrong in ``kind`` and the properties that matter for that kind, and its
/// `description` reads as a sentence a developer can act on:
///
/// ```
/// POST /facilities/1/reviews failed: the server answered 422 Unprocessable Content ("rating must be between 1 and 5").
/// GET /orders/7 returned a body that does not decode as Order: key "subtotal" is missing (body starts with {"id":7,...).
/// ```
///
/// A struct rather than an enum, so that new kinds of failure can be added without breaking
/// anyone's code: compare ``kind`` with `==`, or switch over it with a `default` case.
///
/// ```swift
/// client.send(Reviews.post(facilityID: 1, content: "良い", rating: 5))
///     .failure { error, isCancelled in
///         guard let error = error as? APIError, !isCancelled else { return }
///         if error.kind == .unacceptableStatus, error.statusCode == 409 { showConflict(error.serverMessage) }
///     }
/// ```
public struct APIError: Error, Sendable, CustomStringConvertible {
    /// What went wrong. Compare with `==` or match in a `switch` (which needs a `default`).
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        /// The request could not be built: ``APIError/field`` says which part (`path`, `method`,
        /// `body`, or `header "Name"`) and ``APIError/reason`` why. Nothing was sent.
        public static let invalidRequest = Kind(name: "invalidRequest")
        /// The request did not get a response: a connection, DNS, TLS or timeout failure, with the
        /// ``APIError/urlError`` that says which.
        public static let transport = Kind(name: "transport")
        /// The server answered with a status code the endpoint does not accept; its own
        /// explanation, if it sent one, is in ``APIError/serverMessage``.
        public static let unacceptableStatus = Kind(name: "unacceptableStatus")
        /// The response's `Content-Type` (``APIError/contentType``, `nil` when none was sent) is not
        /// one of ``APIError/acceptableContentTypes``.
        public static let unacceptableContentType = Kind(name: "unacceptableContentType")
        /// The body does not decode as ``APIError/decodedType``; ``APIError/codingPath`` and
        /// ``APIError/reason`` say where and why.
        public static let decodingFailed = Kind(name: "decodingFailed")
        /// The request was cancelled before it finished.
        public static let cancelled = Kind(name: "cancelled")
        /// The call did not finish within the client's ``Client/Configuration/deadline``
        /// (``APIError/deadline``); its request was cancelled.
        public static let deadlineExceeded = Kind(name: "deadlineExceeded")
        /// The server redirected to a place the client's ``RedirectPolicy`` does not follow
        /// (``APIError/reason`` says why; the redirect is in ``APIError/response``). Nothing was
        /// sent there.
        public static let redirectRefused = Kind(name: "redirectRefused")
        /// The response's body is longer than the client keeps in memory
        /// (``APIError/maximumResponseSize``, from ``Client/Configuration/maximumResponseSize``);
        /// the transfer was stopped when that became clear.
        public static let responseTooLarge = Kind(name: "responseTooLarge")
        /// An element of a streamed response (a server-sent event, a JSON line) grew past the
        /// stream's ``StreamOptions/maximumElementSize`` (in ``maximumResponseSize``); the stream
        /// was stopped.
        public static let elementTooLarge = Kind(name: "elementTooLarge")

        /// The kind's name, as in `unacceptableStatus`.
        public var description: String { name }
    }

    /// What went wrong.
    public let kind: Kind
    /// The request this error is about.
    public internal(set) var request: RequestSummary
    /// The response, when the server sent one.
    public let response: HTTPResponse?
    /// The response's status code, when the server sent one.
    ///
    /// Stored rather than read from ``response`` when asked: Swift 6.3's optimizer crashes on an
    /// optional chain through the response of an error bound by `catch let error as APIError`.
    public let statusCode: Int?
    /// The part of the request that could not be built (``Kind/invalidRequest``).
    public let field: String?
    /// Why the request could not be built (``Kind/invalidRequest``) or the body did not decode
    /// (``Kind/decodingFailed``); for ``Kind/responseTooLarge``, the type of a transport that
    /// handed a download back in memory instead of in its file.
    public let reason: String?
    /// The transport's error (``Kind/transport``).
    public let urlError: URLError?
    /// The `message` of the server's JSON error body, if it sent one (``Kind/unacceptableStatus``).
    public let serverMessage: String?
    /// The response's `Content-Type`, `nil` when none was sent (``Kind/unacceptableContentType``).
    public let contentType: String?
    /// The content types the endpoint accepts (``Kind/unacceptableContentType``; empty otherwise).
    public let acceptableContentTypes: [String]
    /// The name of the type the body should have decoded as (``Kind/decodingFailed``).
    public let decodedType: String?
    /// Where in the body decoding failed, as in `orders[0].subtotal` (``Kind/decodingFailed``;
    /// empty at the top level).
    public let codingPath: String?
    /// The deadline the call missed (``Kind/deadlineExceeded``).
    public let deadline: Duration?
    /// The limit the response (``Kind/responseTooLarge``) or one of its streamed elements
    /// (``Kind/elementTooLarge``) went past, in bytes.
    public let maximumResponseSize: Int?
    /// How many attempts the call made before failing with this error, when it made more than
    /// one (retries); `nil` otherwise.
    public internal(set) var attempts: Int?
    /// How long the call took, from ``Client/send(_:)`` to this failure, when it made more than
    /// one attempt; `nil` otherwise.
    public internal(set) var duration: Duration?

    /// This error, saying how many attempts it took and how long since `start`, when it took more
    /// than one: what a call fails with after its retries. A cancellation is left as it is.
    func after(attempts: Int, since start: ContinuousClock.Instant) -> APIError {
        guard attempts > 1, kind != .cancelled else { return self }
        var error = self
        error.attempts = attempts
        error.duration = ContinuousClock.now - start
        return error
    }

    private init(
        _ kind: Kind, _ request: RequestSummary, response: HTTPResponse? = nil, field: String? = nil, reason: String? = nil,
        urlError: URLError? = nil, serverMessage: String? = nil, contentType: String? = nil,
        acceptableContentTypes: [String] = [], decodedType: String? = nil, codingPath: String? = nil,
        deadline: Duration? = nil, maximumResponseSize: Int? = nil
    ) {
        self.kind = kind
        self.request = request
        self.response = response
        self.statusCode = response?.statusCode
        self.field = field
        self.reason = reason
        self.urlError = urlError
        self.serverMessage = serverMessage
        self.contentType = contentType
        self.acceptableContentTypes = acceptableContentTypes
        self.decodedType = decodedType
        self.codingPath = codingPath
        self.deadline = deadline
        self.maximumResponseSize = maximumResponseSize
    }

    /// The request could not be built: `field` is invalid, for `reason`.
    static func invalidRequest(_ request: RequestSummary, field: String, reason: String) -> APIError {
        APIError(.invalidRequest, request, field: field, reason: reason)
    }

    /// The request did not get a response, for the reason `error` gives; or, with `cutAfter`
    /// (as in `3 events`), a stream's response stopped after that much was handed on.
    static func transport(_ request: RequestSummary, _ error: URLError, cutAfter: String? = nil) -> APIError {
        APIError(.transport, request, reason: cutAfter, urlError: error)
    }

    /// The server answered with a status code the endpoint does not accept, saying `message`.
    package static func unacceptableStatus(_ request: RequestSummary, _ response: HTTPResponse, message: String?) -> APIError {
        APIError(.unacceptableStatus, request, response: response, serverMessage: message)
    }

    /// The response's content type is `contentType` (`nil`: none), not one of `acceptable`.
    static func unacceptableContentType(
        _ request: RequestSummary, _ response: HTTPResponse, contentType: String?, acceptable: [String]
    ) -> APIError {
        APIError(.unacceptableContentType, request, response: response, contentType: contentType, acceptableContentTypes: acceptable)
    }

    /// The body does not decode as `type`, at `codingPath`, for `reason`.
    static func decodingFailed(
        _ request: RequestSummary, _ response: HTTPResponse, type: String, codingPath: String, reason: String
    ) -> APIError {
        APIError(.decodingFailed, request, response: response, reason: reason, decodedType: type, codingPath: codingPath)
    }

    /// The request was cancelled before it finished.
    static func cancelled(_ request: RequestSummary) -> APIError {
        APIError(.cancelled, request)
    }

    /// The server answered with `response`, a redirect the client will not follow, for `reason`.
    static func redirectRefused(_ request: RequestSummary, _ response: HTTPResponse, reason: String) -> APIError {
        APIError(.redirectRefused, request, response: response, reason: reason)
    }

    /// The call did not finish within `deadline`.
    static func deadlineExceeded(_ request: RequestSummary, deadline: Duration) -> APIError {
        APIError(.deadlineExceeded, request, deadline: deadline)
    }
    /// The response's body went past `limit` bytes (`response`, when the transport handed one
    /// back, has its head and what was kept of its body).
    /// With `ignoringFileBy`, the body was a download that transport handed back in memory
    /// rather than in the file ``TransferOptions/destination`` asked for.
    static func responseTooLarge(
        _ request: RequestSummary, _ response: HTTPResponse? = nil, limit: Int, ignoringFileBy transport: (any Transport)? = nil
    ) -> APIError {
        let reason = transport.map { "\(type(of: $0))" }
        return APIError(.responseTooLarge, request, response: response, reason: reason, maximumResponseSize: limit)
    }

    /// A streamed response's element went past `limit` bytes (`element`: `an event`, `a line`).
    static func elementTooLarge(_ request: RequestSummary, element: String, limit: Int) -> APIError {
        APIError(.elementTooLarge, request, reason: element, maximumResponseSize: limit)
    }

    /// Whether the call was cancelled rather than failed.
    public var isCancelled: Bool { kind == .cancelled }

    /// ``description``, hiding what `redaction` names (instead of the client's redaction).
    public func description(redactedBy redaction: Redaction) -> String {
        var copy = self
        copy.request.redaction = redaction
        return copy.description
    }

    /// One sentence naming the request and what went wrong, as in `GET /orders/7 was cancelled.`
    /// Secrets are hidden by the client's ``Client/Configuration/redaction``, and text the server
    /// sent is kept on one line.
    public var description: String {
        let sentence = summary
        guard let attempts, attempts > 1, let duration else { return sentence }
        return "\(sentence.dropLast()), after \(attempts) attempts over \(String(format: "%.1f", duration.timeInterval)) s."
    }

    /// The sentence about the failure itself, without the attempts.
    private var summary: String {
        switch kind {
        case .invalidRequest:
            return "\(request) could not be sent: the \(field ?? "request") is invalid (\(reason ?? "unknown reason"))."
        case .transport:
            if let reason { return "\(request) was cut off after \(reason): \(urlError.map(Self.describe) ?? "no reason given")." }
            return "\(request) failed before a response arrived: \(urlError.map(Self.describe) ?? "no response")."
        case .unacceptableStatus:
            guard let response else { return "\(request) failed: the server's status is not accepted." }
            let preview = response.body.isEmpty ? "" : " (body starts with \(response.bodyPreview(redaction: request.redaction)))"
            let detail = serverMessage.map { " (\"\(MessageText.escaped(request.redaction.text($0)))\")" } ?? preview
            let answered = "\(request) failed: the server answered \(response.statusCode) \(response.reasonPhrase)\(detail)"
            guard response.statusCode == 401, request.sentWithoutCredentials else { return answered + "." }
            return answered + ", and the request carried no credentials (no Authorization or Cookie field): "
                + "add an Authenticator to the client's interceptors, or set the field in an adapter."
        case .unacceptableContentType:
            let received = contentType.map { "\"\($0)\"" } ?? "no Content-Type"
            let preview = response.map { $0.body.isEmpty ? "" : " (body starts with \($0.bodyPreview(redaction: request.redaction)))" } ?? ""
            return "\(request) returned \(received), but the endpoint accepts \(acceptableContentTypes.joined(separator: ", "))\(preview)."
        case .decodingFailed:
            let at = (codingPath ?? "").isEmpty ? "" : " at \(codingPath ?? "")"
            let preview = response.map { " (body starts with \($0.bodyPreview(redaction: request.redaction)))" } ?? ""
            return "\(request) returned a body that does not decode as \(decodedType ?? "its response type"): \(reason ?? "unknown reason")\(at)\(preview)."
        case .cancelled:
            return "\(request) was cancelled."
        case .redirectRefused:
            let status = response.map { "\($0.statusCode) \($0.reasonPhrase)" } ?? "a redirect"
            return "\(request) was not redirected: the server answered \(status), and \(reason ?? "the redirect is not followed")."
        case .deadlineExceeded:
            return "\(request) did not finish within its deadline of \(deadline ?? .zero); the request was cancelled."
        case .responseTooLarge:
            let limit = Self.describe(bytes: maximumResponseSize ?? 0)
            if let transport = reason {
                return "\(request) is a download, but its transport \(transport) handed the body back in memory, where it is larger than "
                    + "the client's maximumResponseSize of \(limit): the transport does not honour TransferOptions.destination, "
                    + "which asks for the body in the download's file (see Transport)."
            }
            return "\(request) returned a body larger than the client's maximumResponseSize of \(limit); the transfer was stopped."
        case .elementTooLarge:
            let limit = Self.describe(bytes: maximumResponseSize ?? 0)
            return "\(request) sent \(reason ?? "an element") larger than the stream's maximumElementSize of \(limit); the stream was stopped."
        default:
            return "\(request) failed (\(kind))."
        }
    }
}

extension APIError: CancellationMarking {
    package var marksCancellation: Bool { isCancelled }
}

// `localizedDescription` (and so any UI or log that shows it) is the sentence, rather than
// Foundation's "The operation could not be completed. (Baton.APIError error 2.)".
extension APIError: LocalizedError {
    /// The error's sentence: see ``description``.
    public var errorDescription: String? { description }
}
