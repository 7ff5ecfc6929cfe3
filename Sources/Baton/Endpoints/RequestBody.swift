import Foundation

/// What a request carries. Bodies are encoded when the request is built, so an encoding failure
/// rejects the promise with ``APIError/invalidRequest(_:field:reason:)`` before any byte is sent.
public enum RequestBody: Sendable {
    /// No body.
    case none
    /// Bytes sent as they are, with their content type.
    case data(Data, contentType: String)
    /// A value encoded as JSON with the client's `JSONEncoder` (``Client/Configuration/encoder``).
    case json(any Encodable & Sendable)
    /// Fields encoded as `application/x-www-form-urlencoded` (the WHATWG URL standard's form
    /// encoding, which RFC 6749 token requests use), in order.
    case form([(name: String, value: String)])

    /// Encodes the body: its bytes and content type, or `nil` for no body.
    func encoded(with encoder: JSONEncoder) throws -> (data: Data, contentType: String)? {
        switch self {
        case .none:
            return nil
        case .data(let data, let contentType):
            return (data, contentType)
        case .json(let value):
            return (try encoder.encode(value), "application/json")
        case .form(let fields):
            let text = fields.map { "\(Self.formEncode($0.name))=\(Self.formEncode($0.value))" }.joined(separator: "&")
            return (Data(text.utf8), "application/x-www-form-urlencoded")
        }
    }

    /// What stands for itself in a form field (the WHATWG `application/x-www-form-urlencoded`
    /// byte set); a space is written `+`.
    private static let formCharacters = ASCIISet.alphanumerics.adding("*-._")

    static func formEncode(_ text: String) -> String {
        formCharacters.percentEncoded(text, spaceAsPlus: true)
    }
}
