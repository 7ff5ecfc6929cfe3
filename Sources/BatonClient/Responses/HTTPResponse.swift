import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// A response as it arrived: status, headers and body bytes.
///
/// Its `description` names the status, the headers (secret ones such as `Set-Cookie` hidden) and
/// the body's length, never the body itself.
public struct HTTPResponse: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The status code, such as `200`.
    public var statusCode: Int
    /// The header fields. Look them up with ``value(forHeader:)``, which ignores case (and, for
    /// a response from URLSession, reads the one field rather than converting them all).
    public var headers: [String: String] {
        get {
            switch fields {
            case .converted(let headers): return headers
            case .urlSession(let response): return Self.headers(of: response)
            }
        }
        set { fields = .converted(newValue) }
    }
    /// The body bytes (empty for none).
    public var body: Data
    /// The URL that answered (after any redirect).
    public var url: URL?
    /// For a download (``Client/download(_:to:options:)``), the temporary file a successful response's
    /// body was written to, ``body`` being empty; `nil` otherwise. The client moves it to its
    /// destination, or removes it.
    public var bodyFile: URL?
    /// Whether this is a `304` to a conditional request the client made for a stored value,
    /// which answers with that value (see ``Client/Configuration/revalidatesStoredValues``).
    var isRevalidation = false
    private var fields: HeaderFields

    /// Where the header fields are. A response from URLSession keeps them in its
    /// `HTTPURLResponse` until they are read in full: on Linux, `allHeaderFields` converts every
    /// field to `[AnyHashable: Any]` and reading them back converts them again, which costs more
    /// than validating and decoding a small response, while a call usually reads one field
    /// (`Content-Type`) or none.
    private enum HeaderFields: Sendable {
        case converted([String: String])
        case urlSession(HTTPURLResponse)
    }

    /// A response with these parts, as a transport reports one (or a test stubs one).
    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data(), url: URL? = nil) {
        self.statusCode = statusCode
        self.fields = .converted(headers)
        self.body = body
        self.url = url
    }

    /// The response URLSession reported, with the body that came with it.
    init(_ response: HTTPURLResponse, body: Data) {
        statusCode = response.statusCode
        fields = .urlSession(response)
        self.body = body
        url = response.url
    }

    /// The value of the header field `name`, compared without regard to case (RFC 9110 §5.1).
    public func value(forHeader name: String) -> String? {
        switch fields {
        case .urlSession(let response):
            return response.value(forHTTPHeaderField: name)
        case .converted(let headers):
            if let exact = headers[name] { return exact }
            let lowered = name.lowercased()
            return headers.first { $0.key.lowercased() == lowered }?.value
        }
    }

    private static func headers(of response: HTTPURLResponse) -> [String: String] {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return headers
    }

    /// The media type of the body without parameters, lower-cased (`application/json` for
    /// `application/json; charset=utf-8`), or `nil` if the response has no `Content-Type` or
    /// an empty one.
    public var mediaType: String? {
        guard let field = value(forHeader: "Content-Type") else { return nil }
        // Byte by byte rather than through Foundation's trimming: this runs for every response,
        // and a media type is ASCII (RFC 9110 §8.3.1). Usually it is already lower-case and
        // unpadded, and taken as it is.
        let type = field[..<(field.utf8.firstIndex(of: UInt8(ascii: ";")) ?? field.endIndex)]
        if Self.plainMediaTypeCharacters.containsAll(of: type) { return type.isEmpty ? nil : String(type) }
        var bytes = type.utf8[...]
        while let first = bytes.first, first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") { bytes.removeFirst() }
        while let last = bytes.last, last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") { bytes.removeLast() }
        if bytes.isEmpty { return nil }
        return String(decoding: bytes.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// What a media type already in its plain form holds: no upper-case letter, no space.
    private static let plainMediaTypeCharacters = ASCIISet("abcdefghijklmnopqrstuvwxyz0123456789!#$&-^_.+/*")

    /// `200 OK, headers [Content-Type: application/json, Set-Cookie: <redacted>], 42 bytes`.
    public var description: String {
        let redaction = Redaction.default
        let fields = headers.sorted { $0.key < $1.key }.map { "\($0.key): \(redaction.headerValue($0.value, for: $0.key))" }
        return MessageText.escaped("\(statusCode) \(reasonPhrase), headers [\(fields.joined(separator: ", "))], \(body.count) bytes")
    }

    /// The same as ``description``: a response printed in a debugger or by `dump` hides its
    /// secrets too.
    public var debugDescription: String { description }

    /// The standard text of the status code (RFC 9110 §15), such as `Not Found`.
    public var reasonPhrase: String {
        ReasonPhrase.forStatus(statusCode)
    }

    /// The start of the body as text, for error messages: at most `limit` characters, secrets
    /// hidden by `redaction` whatever the body's size and type, on one line (error descriptions
    /// end up in logs).
    func bodyPreview(limit: Int = 120, redaction: Redaction = .default) -> String {
        let contentType = value(forHeader: "Content-Type")
        let text = body.count <= Redaction.largestParsedBody
            ? redaction.body(body, contentType: contentType, unknownAsText: true)
            : redaction.text(String(decoding: body.prefix(limit * 8), as: UTF8.self))
        let line = MessageText.escaped(text)
        return line.count > limit ? String(line.prefix(limit)) + "..." : line
    }

    /// What a JSON error body says of itself, read in one place for every reader: a message for
    /// people (`message`, else OAuth's `error_description`, else the code) and a code for programs
    /// (`error`, as RFC 6749 §5.2 and RFC 6750 name it, else the message).
    package var serverError: (message: String?, code: String?) {
        guard !body.isEmpty, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return (nil, nil) }
        let message = object["message"] as? String
        let description = object["error_description"] as? String
        let code = object["error"] as? String
        return (message ?? description ?? code, code ?? message)
    }

    /// The message of a JSON error body such as `{"message": "invalid_token"}`, if there is one.
    var serverMessage: String? { serverError.message }
}
