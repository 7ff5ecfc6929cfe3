import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request ready for its first attempt: the URLRequest without its body, and the body.
struct PreparedRequest: Sendable {
    var urlRequest: URLRequest
    var body: TransportBody?
    var summary: RequestSummary
}

/// Turns an ``Endpoint`` into a ``PreparedRequest``, or an ``APIError/invalidRequest(_:field:reason:)``
/// saying which part is wrong.
struct RequestBuilder {
    let configuration: Client.Configuration

    func prepare<E: Endpoint>(_ endpoint: E) throws(APIError) -> PreparedRequest {
        let path = endpoint.path.encoded
        let url = makeURL(path: path, query: endpoint.query)
        let summary = RequestSummary(method: endpoint.method, url: url, path: path)
        guard let url else {
            throw .invalidRequest(summary, field: "path", reason: "\"\(path)\" does not form a URL with the base URL \(configuration.baseURL)")
        }
        guard Self.isToken(endpoint.method.rawValue) else {
            throw .invalidRequest(summary, field: "method", reason: "\"\(endpoint.method)\" is not a valid HTTP method token")
        }
        var request = URLRequest(url: url)
        request.httpMethod = endpoint.method.rawValue
        request.timeoutInterval = configuration.timeout.timeInterval
        request.setValue(configuration.userAgent, forHTTPHeaderField: "User-Agent")
        for (name, value) in configuration.headers.merging(endpoint.headers, uniquingKeysWith: { $1 }) {
            guard Self.isToken(name), !value.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                throw .invalidRequest(summary, field: "headers", reason: "\"\(name)\" is not a valid header field")
            }
            request.setValue(value, forHTTPHeaderField: name)
        }
        let encoded: (data: Data, contentType: String)?
        do {
            encoded = try endpoint.body.encoded(with: configuration.encoder)
        } catch {
            throw .invalidRequest(summary, field: "body", reason: "it does not encode: \(error)")
        }
        if let encoded, request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setValue(encoded.contentType, forHTTPHeaderField: "Content-Type")
        }
        if request.value(forHTTPHeaderField: "Accept") == nil, !endpoint.acceptableContentTypes.contains("*/*") {
            request.setValue(endpoint.acceptableContentTypes.joined(separator: ", "), forHTTPHeaderField: "Accept")
        }
        return PreparedRequest(urlRequest: request, body: encoded.map { .data($0.data) }, summary: summary)
    }

    /// The base URL joined with `path` (exactly one `/` between them) and `query`.
    private func makeURL(path: String, query: [URLQueryItem]) -> URL? {
        guard var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: true) else { return nil }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        components.percentEncodedPath = path.isEmpty ? basePath + "/" : basePath + "/" + path
        if !query.isEmpty {
            let encoded = query.map { item in
                Self.encodeQuery(item.name) + (item.value.map { "=" + Self.encodeQuery($0) } ?? "")
            }.joined(separator: "&")
            components.percentEncodedQuery = [components.percentEncodedQuery, encoded].compactMap { $0 }.joined(separator: "&")
        }
        return components.url
    }

    /// RFC 3986 unreserved characters stand for themselves; everything else, `+`, `&` and `=`
    /// included, is percent-encoded, so that no server reads a value as something else.
    private static let queryCharacters: CharacterSet = {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return allowed
    }()

    private static func encodeQuery(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryCharacters) ?? ""
    }

    /// RFC 9110 §5.6.2 `token`: the characters allowed in a method or a header name.
    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
        }
    }
}

extension Duration {
    /// The duration in seconds, for Foundation APIs.
    var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
