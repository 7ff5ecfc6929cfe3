import Foundation

/// What a request carries. Bodies are encoded when the request is built, so an encoding failure
/// rejects the promise with an ``APIError`` of kind ``APIError/Kind/invalidRequest`` before any
/// byte is sent.
///
/// Made with its static members (`.json(review)`, `.form([...])`); a struct rather than an enum,
/// so that new kinds of body can be added without breaking anyone's code.
public struct RequestBody: Sendable {
    private enum Storage: Sendable {
        case none
        case data(Data, contentType: String)
        case json(any Encodable & Sendable)
        case form([(name: String, value: String)])
    }

    private let storage: Storage

    /// No body.
    public static var none: RequestBody { RequestBody(storage: .none) }

    /// Bytes sent as they are, with their content type.
    public static func data(_ data: Data, contentType: String) -> RequestBody {
        RequestBody(storage: .data(data, contentType: contentType))
    }

    /// A value encoded as JSON with the client's `JSONEncoder` (``Client/Configuration/encoder``).
    public static func json(_ value: any Encodable & Sendable) -> RequestBody {
        RequestBody(storage: .json(value))
    }

    /// Fields encoded as `application/x-www-form-urlencoded` (the WHATWG URL standard's form
    /// encoding, which RFC 6749 token requests use), in order.
    public static func form(_ fields: [(name: String, value: String)]) -> RequestBody {
        RequestBody(storage: .form(fields))
    }

    /// Encodes the body: its bytes and content type, or `nil` for no body.
    func encoded(with encoder: JSONEncoder) throws -> (data: Data, contentType: String)? {
        switch storage {
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
