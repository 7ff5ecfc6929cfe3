import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// Names a request in errors and events: its method and its URL, as sent, without credentials and
/// with the values of secret query items hidden by the client's ``Redaction``.
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
    /// Whether the request went with neither an `Authorization` nor a `Cookie` field: a `401` to
    /// it then says that none were sent, and how to send them.
    var sentWithoutCredentials = false

    /// Names a request of `method` to `url` (`nil` if it could not be built), for the endpoint
    /// path `path`, described with `redaction`.
    public init(method: HTTPMethod, url: URL?, path: String, redaction: Redaction = .default) {
        self.method = method
        self.url = url
        self.path = path
        self.redaction = redaction
    }

    /// The method, then the URL without its user and password, secret query values hidden, as in
    /// `GET https://api.example.com/v1/orders?page=2`: the host and the base URL's path name the
    /// server a request went to. `GET /orders/7`, from ``path``, when there is no URL. The
    /// ``files`` sent follow, as in `POST https://api.example.com/reviews/1/photos (sending flaky.jpg)`.
    public var description: String {
        description(redactedBy: redaction)
    }

    /// ``description``, hiding what `redaction` names.
    public func description(redactedBy redaction: Redaction) -> String {
        if let url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            let query = components.percentEncodedQuery.map { "?" + redaction.formFields($0) } ?? ""
            components.user = nil
            components.password = nil
            components.percentEncodedQuery = nil
            components.fragment = nil
            let location = components.string ?? components.percentEncodedPath
            return MessageText.escaped("\(method) \(location)\(query)\(sending)")
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
