import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// Names a request in errors and events: its method and its path with query, as sent, with the
/// values of secret query items hidden by the client's ``Redaction``.
public struct RequestSummary: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP method.
    public var method: HTTPMethod
    /// The full URL, when it could be built.
    public var url: URL?
    /// The path relative to the base URL, as the endpoint gave it.
    public var path: String
    /// What descriptions of this request, and of errors about it, hide: the client's.
    public var redaction: Redaction
    /// The names of the files its body sends (a file body's, a multipart form's file parts'),
    /// named in its description, so that a failed upload among many says which file it was.
    public var files: [String] = []

    /// Names a request of `method` to `url` (`nil` if it could not be built), for the endpoint
    /// path `path`, described with `redaction`.
    public init(method: HTTPMethod, url: URL?, path: String, redaction: Redaction = .default) {
        self.method = method
        self.url = url
        self.path = path
        self.redaction = redaction
    }

    /// The method, then the URL's path and query with secret values hidden, as in `GET /v1/orders?page=2`;
    /// `GET /orders/7`, from ``path``, when there is no URL. The ``files`` sent follow, as in
    /// `POST /reviews/1/photos (sending flaky.jpg)`.
    public var description: String {
        description(redactedBy: redaction)
    }

    /// ``description``, hiding what `redaction` names.
    public func description(redactedBy redaction: Redaction) -> String {
        if let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.scheme = nil
            components.host = nil
            components.port = nil
            components.user = nil
            components.password = nil
            let query = components.percentEncodedQuery.map { "?" + redaction.formFields($0) } ?? ""
            return MessageText.escaped("\(method) \(components.percentEncodedPath)\(query)\(sending)")
        }
        return MessageText.escaped("\(method) /\(path)\(sending)")
    }

    /// ` (sending a.jpg, b.jpg and 3 more)`, or nothing when no file is sent.
    private var sending: String {
        guard !files.isEmpty else { return "" }
        let named = files.prefix(3).map { $0.count > 80 ? "\($0.prefix(80))…" : $0 }
        let more = files.count > named.count ? " and \(files.count - named.count) more" : ""
        return " (sending \(named.joined(separator: ", "))\(more))"
    }
}
