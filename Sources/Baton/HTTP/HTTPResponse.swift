import Foundation

/// A response as it arrived: status, headers and body bytes.
public struct HTTPResponse: Sendable {
    /// The status code, such as `200`.
    public var statusCode: Int
    /// The header fields. Look them up with ``value(forHeader:)``, which ignores case.
    public var headers: [String: String]
    /// The body bytes (empty for none).
    public var body: Data
    /// The URL that answered (after any redirect).
    public var url: URL?

    /// A response with these parts, as a transport reports one (or a test stubs one).
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data(), url: URL? = nil) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// The value of the header field `name`, compared without regard to case (RFC 9110 §5.1).
    public func value(forHeader name: String) -> String? {
        if let exact = headers[name] { return exact }
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }

    /// The media type of the body without parameters, lower-cased (`application/json` for
    /// `application/json; charset=utf-8`), or `nil` if the response has no `Content-Type`.
    public var mediaType: String? {
        guard let field = value(forHeader: "Content-Type") else { return nil }
        // Byte by byte rather than through Foundation's trimming: this runs for every response,
        // and a media type is ASCII (RFC 9110 §8.3.1).
        var type = field.utf8.prefix { $0 != UInt8(ascii: ";") }
        while let first = type.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { type.removeFirst() }
        while let last = type.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { type.removeLast() }
        return String(decoding: type.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The standard text of the status code (RFC 9110 §15), such as `Not Found`.
    public var reasonPhrase: String {
        ReasonPhrase.forStatus(statusCode)
    }

    /// The start of the body as text, for error messages: at most `limit` characters, with token
    /// and password fields of a JSON or form body hidden (error descriptions end up in logs).
    func bodyPreview(limit: Int = 120) -> String {
        let contentType = value(forHeader: "Content-Type")
        let text = body.count <= 64 << 10
            ? Redaction.default.body(body, contentType: contentType, unknownAsText: true)
            : String(decoding: body.prefix(limit * 4), as: UTF8.self)
        return text.count > limit ? String(text.prefix(limit)) + "..." : text
    }

    /// The `message` of a JSON error body such as `{"message": "invalid_token"}`, if there is one.
    var serverMessage: String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        return (object["message"] ?? object["error_description"] ?? object["error"]) as? String
    }
}
