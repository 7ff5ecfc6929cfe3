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
struct RequestBuilder: Sendable {
    let configuration: Client.Configuration
    /// The base URL as text without a trailing `/`, when it has no query or fragment: a path is
    /// then appended to it as text, sparing a URLComponents round trip on every call.
    private let urlPrefix: String?

    init(configuration: Client.Configuration) {
        self.configuration = configuration
        urlPrefix = Self.prefix(of: configuration.baseURL)
    }

    func prepare<E: Endpoint>(_ endpoint: E) throws(APIError) -> PreparedRequest {
        let path = endpoint.path.encoded
        if let mark = path.first(where: { $0 == "?" || $0 == "#" }) {
            let summary = RequestSummary(method: endpoint.method, url: nil, path: path)
            throw .invalidRequest(summary, field: "path", reason: "it contains \"\(mark)\"; put query items in the endpoint's `query`")
        }
        let url = makeURL(path: path, query: endpoint.query)
        let summary = RequestSummary(method: endpoint.method, url: url, path: path)
        guard let url else {
            throw .invalidRequest(summary, field: "path", reason: "\"\(path)\" does not form a URL with the base URL \(configuration.baseURL)")
        }
        guard Self.isToken(endpoint.method.rawValue) else {
            throw .invalidRequest(summary, field: "method", reason: "\"\(endpoint.method)\" is not a valid HTTP method token")
        }
        let encoded: (data: Data, contentType: String)?
        do {
            encoded = try endpoint.body.encoded(with: configuration.encoder)
        } catch {
            throw .invalidRequest(summary, field: "body", reason: "it does not encode: \(error)")
        }
        // Merged by lower-cased name, later ones winning (names are case-insensitive), then set
        // in one assignment: one NSMutableURLRequest update instead of one per field.
        var fields: [String: (name: String, value: String)] = [:]
        func add(_ name: String, _ value: String) throws(APIError) {
            // Checked before setting: URLRequest on Linux silently drops a value with a line break.
            try Self.validateHeader(name, value, summary: summary)
            fields[name.lowercased()] = (name, value)
        }
        try add("User-Agent", configuration.userAgent)
        for (name, value) in configuration.headers.sorted(by: { $0.key < $1.key }) { try add(name, value) }
        for (name, value) in endpoint.headers.sorted(by: { $0.key < $1.key }) { try add(name, value) }
        if let encoded, fields["content-type"] == nil { try add("Content-Type", encoded.contentType) }
        if fields["accept"] == nil, !endpoint.acceptableContentTypes.contains("*/*") {
            try add("Accept", endpoint.acceptableContentTypes.joined(separator: ", "))
        }
        var request = URLRequest(url: url)
        request.httpMethod = endpoint.method.rawValue
        request.timeoutInterval = configuration.timeout.timeInterval
        request.allHTTPHeaderFields = Dictionary(uniqueKeysWithValues: fields.values.map { ($0.name, $0.value) })
        return PreparedRequest(urlRequest: request, body: encoded.map { .data($0.data) }, summary: summary)
    }

    /// Checks every header field (RFC 9110 §5.1 and §5.5): a name must be a token, and a value must
    /// not hold a line break or NUL, which would let it inject other fields. Run again after the
    /// adapters, which may add headers.
    static func validateHeaders(of request: URLRequest, summary: RequestSummary, setBy origin: String = "") throws(APIError) {
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            try validateHeader(name, value, summary: summary, setBy: origin)
        }
    }

    static func validateHeader(_ name: String, _ value: String, summary: RequestSummary, setBy origin: String = "") throws(APIError) {
        guard isToken(name) else {
            throw .invalidRequest(summary, field: "header \"\(name)\"\(origin)", reason: "the name is not an HTTP token")
        }
        if value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
            throw .invalidRequest(summary, field: "header \"\(name)\"\(origin)", reason: "the value contains a line break or NUL")
        }
    }

    /// The base URL joined with `path` (exactly one `/` between them) and `query`.
    private func makeURL(path: String, query: [URLQueryItem]) -> URL? {
        // URLComponents traps on a percent-encoded path holding anything else; EndpointPath
        // never produces one, but a path is user input, so check rather than trust.
        guard path.utf8.allSatisfy({ $0 < 128 && Self.pathBytes[Int($0)] }) else { return nil }
        let encodedQuery = query.map { item in
            Self.encodeQuery(item.name) + (item.value.map { "=" + Self.encodeQuery($0) } ?? "")
        }.joined(separator: "&")
        if let urlPrefix {
            return URL(string: urlPrefix + "/" + path + (query.isEmpty ? "" : "?" + encodedQuery))
        }
        guard var components = URLComponents(url: configuration.baseURL, resolvingAgainstBaseURL: true) else { return nil }
        var basePath = components.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        components.percentEncodedPath = path.isEmpty ? basePath + "/" : basePath + "/" + path
        if !query.isEmpty {
            components.percentEncodedQuery = [components.percentEncodedQuery, encodedQuery].compactMap { $0 }.joined(separator: "&")
        }
        return components.url
    }

    /// The text a path is appended to, or `nil` when the base URL has a query or fragment (which
    /// must stay after the path) or cannot be taken apart.
    private static func prefix(of baseURL: URL) -> String? {
        guard let components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true),
              components.percentEncodedQuery == nil, components.percentEncodedFragment == nil,
              var text = components.string else { return nil }
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }

    /// Which ASCII bytes a percent-encoded path may hold: RFC 3986 `pchar`, `/` and `%`.
    private static let pathBytes: [Bool] = (0..<128).map { byte in
        let scalar = Unicode.Scalar(UInt8(byte))
        return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "-._~!$&'()*+,;=:@/%".unicodeScalars.contains(scalar)
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
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in byte < 128 && tokenBytes[Int(byte)] }
    }

    /// Which ASCII bytes a token may hold: letters, digits and ``!#$%&'*+-.^_`|~``.
    private static let tokenBytes: [Bool] = (0..<128).map { byte in
        let scalar = Unicode.Scalar(UInt8(byte))
        return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
            || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar)
    }
}
