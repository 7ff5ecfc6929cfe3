import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// A request ready for its first attempt: the URLRequest without its body, and the body.
struct PreparedRequest: Sendable {
    var urlRequest: URLRequest
    var body: TransportBody?
    var summary: RequestSummary
    /// A multipart form too large for memory, to be written to a temporary file (which then
    /// becomes ``body``) before the first attempt.
    var spool: MultipartForm?
    /// The attempt's conditional request for a stored value, set after the adapters: what a
    /// `304` answers with, and where the next validator is kept.
    var revalidation: RevalidationContext?

    /// This request sending `body`, the file a spooled form was written to.
    func sending(_ body: TransportBody) -> PreparedRequest {
        var ready = self
        ready.body = body
        ready.spool = nil
        return ready
    }
}

/// Turns an ``Endpoint`` into a ``PreparedRequest``, or an an ``APIError`` of kind ``APIError/Kind/invalidRequest``
/// saying which part is wrong.
struct RequestBuilder: Sendable {
    let configuration: Client.Configuration
    /// The base URL as text without a trailing `/`, when it has no query or fragment: a path is
    /// then appended to it as text, sparing a URLComponents round trip on every call.
    private let urlPrefix: String?
    /// The client's own header fields (its `User-Agent`, then `headers`), checked and merged once
    /// rather than on every call; `nil` when one is invalid, so that every call reports which.
    private let clientFields: [String: HeaderField]?
    /// `clientFields` as sent.
    private let clientHeaders: [String: String]
    /// `clientHeaders` with the `Accept` of a JSON endpoint, unless the client sets its own.
    private let clientHeadersAcceptingJSON: [String: String]
    /// What descriptions of this client's requests hide: its redaction and sensitive headers.
    let redaction: Redaction

    /// A header field as sent, keyed by its lower-cased name while fields are merged.
    private typealias HeaderField = (name: String, value: String)

    init(configuration: Client.Configuration) {
        self.configuration = configuration
        redaction = configuration.redaction.hiding(headers: configuration.sensitiveHeaders)
        urlPrefix = Self.prefix(of: configuration.baseURL)
        clientFields = try? Self.clientFields(of: configuration, summary: RequestSummary(method: .get, url: nil, path: ""))
        clientHeaders = clientFields.map(Self.asSent) ?? [:]
        var acceptingJSON = clientHeaders
        if clientFields?["accept"] == nil { acceptingJSON["Accept"] = Self.jsonAccept }
        clientHeadersAcceptingJSON = acceptingJSON
    }

    /// Merges the client's header fields: the `User-Agent`, then `headers` in name order.
    private static func clientFields(of configuration: Client.Configuration, summary: RequestSummary) throws(APIError) -> [String: HeaderField] {
        var fields: [String: HeaderField] = [:]
        try add("User-Agent", configuration.userAgent, to: &fields, summary: summary)
        for (name, value) in configuration.headers.sorted(by: { $0.key < $1.key }) {
            try add(name, value, to: &fields, summary: summary)
        }
        return fields
    }

    private static func asSent(_ fields: [String: HeaderField]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: fields.values.map { ($0.name, $0.value) })
    }

    /// Adds a field by its lower-cased name (names are case-insensitive), replacing any
    /// earlier one, after checking it: URLRequest on Linux silently drops a value with a line
    /// break.
    private static func add(_ name: String, _ value: String, to fields: inout [String: HeaderField], summary: RequestSummary) throws(APIError) {
        try HeaderSyntax.validateHeader(name, value, summary: summary)
        fields[name.lowercased()] = (name, value)
    }

    func prepare<E: Endpoint>(_ endpoint: E) throws(APIError) -> PreparedRequest {
        let path = endpoint.path.encoded
        if let mark = path.utf8.first(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            let summary = RequestSummary(method: endpoint.method, url: nil, path: path, redaction: redaction)
            let character = Character(Unicode.Scalar(mark))
            throw .invalidRequest(summary, field: "path", reason: "it contains \"\(character)\"; put query items in the endpoint's `query`")
        }
        if let refusal = endpoint.path.refusal {
            throw .invalidRequest(RequestSummary(method: endpoint.method, url: nil, path: path, redaction: redaction), field: "path", reason: refusal)
        }
        let url = makeURL(path: path, query: endpoint.query)
        var summary = RequestSummary(method: endpoint.method, url: url, path: path, redaction: redaction)
        summary.files = endpoint.body.fileNames
        guard let url else {
            throw .invalidRequest(summary, field: "path", reason: "\"\(path)\" does not form a URL with the base URL \(configuration.baseURL)")
        }
        guard HeaderSyntax.isToken(endpoint.method.rawValue) else {
            throw .invalidRequest(summary, field: "method", reason: "\"\(endpoint.method)\" is not a valid HTTP method token")
        }
        var encoded: RequestBody.Encoded?
        do {
            encoded = try endpoint.body.encoded(with: configuration.encoder, memoryThreshold: configuration.multipartMemoryThreshold)
        } catch let failure as MultipartEncoder.Failure {
            throw .invalidRequest(summary, field: "body", reason: failure.reason)
        } catch {
            throw .invalidRequest(summary, field: "body", reason: "it does not encode: \(error)")
        }
        if endpoint.method == .get || endpoint.method == .head, let body = encoded {
            // One rule on every transport: URLSession on Apple platforms refuses to send such a
            // body, and RFC 9110 gives it no meaning, so no transport sends one.
            guard case .bytes(let data, _) = body, data.isEmpty else {
                throw .invalidRequest(summary, field: "body", reason: "a \(endpoint.method) request carries no body on any transport; "
                                      + "send it with POST, or its values as query items")
            }
            encoded = nil
        }
        var request = URLRequest(url: url)
        // Set, not passed to the initializer: URLSession on Linux honours a request's timeout
        // only when it was set after the request was made.
        request.timeoutInterval = Self.wireTimeout(configuration.timeout)
        // GET is URLRequest's own default, and setting the method costs a normalising copy.
        if endpoint.method != .get { request.httpMethod = endpoint.method.rawValue }
        // One assignment: one NSMutableURLRequest update instead of one per field.
        request.allHTTPHeaderFields = try headerFields(for: endpoint, contentType: encoded?.contentType, summary: summary)
        switch encoded {
        case nil: return PreparedRequest(urlRequest: request, body: nil, summary: summary)
        case .bytes(let data, _): return PreparedRequest(urlRequest: request, body: .data(data), summary: summary)
        case .file(let url, _): return PreparedRequest(urlRequest: request, body: .file(url), summary: summary)
        case .spooled(let form, _): return PreparedRequest(urlRequest: request, body: nil, summary: summary, spool: form)
        }
    }

    /// The timeout as URLSession takes it. On Linux URLSession keeps whole seconds only, so a
    /// fraction is rounded up rather than down (half a second would become none at all).
    static func wireTimeout(_ timeout: Duration) -> TimeInterval {
        #if canImport(FoundationNetworking)
        return timeout.timeInterval.rounded(.up)
        #else
        return timeout.timeInterval
        #endif
    }

    /// The header fields of a call: the client's, then the endpoint's (later ones win), then its
    /// `Idempotency-Key`, `Content-Type` for the body and `Accept` for the response, unless
    /// already set.
    private func headerFields<E: Endpoint>(for endpoint: E, contentType: String?, summary: RequestSummary) throws(APIError) -> [String: String] {
        let types = endpoint.acceptableContentTypes
        // Most calls add nothing to the client's fields but the `Accept` of JSON, or none:
        // both sets were made once.
        let idempotencyKey = endpoint.idempotencyKey
        if clientFields != nil, endpoint.headers.isEmpty, contentType == nil, idempotencyKey == nil {
            if types == Self.jsonContentTypes { return clientHeadersAcceptingJSON }
            if types.contains("*/*") { return clientHeaders }
        }
        let accept = Self.acceptField(for: types)
        var fields: [String: HeaderField]
        if let clientFields { fields = clientFields } else { fields = try Self.clientFields(of: configuration, summary: summary) }
        for (name, value) in endpoint.headers.sorted(by: { $0.key < $1.key }) {
            try Self.add(name, value, to: &fields, summary: summary)
        }
        if let idempotencyKey, fields["idempotency-key"] == nil {
            switch IdempotencyKey.fieldValue(for: idempotencyKey) {
            case .success(let value): fields["idempotency-key"] = (IdempotencyKey.headerName, value)
            case .failure(let refusal): throw .invalidRequest(summary, field: "idempotencyKey", reason: refusal.reason)
            }
        }
        if let contentType, fields["content-type"] == nil {
            try Self.add("Content-Type", contentType, to: &fields, summary: summary)
        }
        if let accept, fields["accept"] == nil {
            try Self.add("Accept", accept, to: &fields, summary: summary)
        }
        return Self.asSent(fields)
    }

    /// The `Accept` value for the media types an endpoint takes, or `nil` when it takes any.
    private static func acceptField(for types: [String]) -> String? {
        types.contains("*/*") ? nil : types.joined(separator: ", ")
    }

    /// What a `Decodable` endpoint accepts by default, and its `Accept` value, made once.
    static let jsonContentTypes = Validation.jsonContentTypes
    private static let jsonAccept = jsonContentTypes.joined(separator: ", ")

    /// The base URL joined with `path` (exactly one `/` between them) and `query`.
    private func makeURL(path: String, query: [URLQueryItem]) -> URL? {
        // URLComponents traps on a percent-encoded path holding anything else; EndpointPath
        // never produces one, but a path is user input, so check rather than trust.
        guard Self.pathCharacters.containsAll(of: path) else { return nil }
        let encodedQuery = query.isEmpty ? "" : query.map { item in
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

    /// What a percent-encoded path may hold: RFC 3986 `pchar`, `/` and `%`.
    private static let pathCharacters = ASCIISet.alphanumerics.adding("-._~!$&'()*+,;=:@/%")

    /// RFC 3986 unreserved characters stand for themselves; everything else, `+`, `&` and `=`
    /// included, is percent-encoded, so that no server reads a value as something else.
    private static let queryCharacters = ASCIISet.alphanumerics.adding("-._~")

    private static func encodeQuery(_ text: String) -> String {
        queryCharacters.percentEncoded(text)
    }
}
