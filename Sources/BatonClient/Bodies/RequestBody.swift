import Foundation
import BatonWire

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
        case file(URL, contentType: String)
        case multipart(MultipartForm)
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

    /// The contents of the file at `url`, streamed from disk as they are sent (never read into
    /// memory), with their content type. A missing or unreadable file fails the call with an
    /// ``APIError`` of kind ``APIError/Kind/invalidRequest`` before any byte is sent.
    public static func file(_ url: URL, contentType: String) -> RequestBody {
        RequestBody(storage: .file(url, contentType: contentType))
    }

    /// A `multipart/form-data` form: see ``MultipartForm``. Up to
    /// ``Client/Configuration/multipartMemoryThreshold`` bytes it is built in memory; a larger one
    /// is written to a temporary file and streamed from it.
    public static func multipart(_ form: MultipartForm) -> RequestBody {
        RequestBody(storage: .multipart(form))
    }

    /// Whether the body is a multipart form: an upload, whose `POST` gets an idempotency key.
    var isMultipart: Bool {
        if case .multipart = storage { return true }
        return false
    }

    /// The names of the files sent: a file body's, a multipart form's named file parts'.
    var fileNames: [String] {
        switch storage {
        case .file(let url, _): return [url.lastPathComponent]
        case .multipart(let form): return form.fileNames
        default: return []
        }
    }

    /// The body's length in bytes when it is known without encoding it: none, bytes, a file, a
    /// form of fields, or a multipart form whose files can be read. `nil` for JSON.
    var knownLength: Int64? {
        switch storage {
        case .none: return 0
        case .data(let data, _): return Int64(data.count)
        case .file(let url, _): return try? MultipartEncoder.readableSize(of: url)
        case .multipart(let form): return try? MultipartEncoder(form: form).size()
        case .json: return nil
        case .form: return (try? encoded(with: JSONEncoder())).map { encoded in
            if case .bytes(let data, _) = encoded { return Int64(data.count) }
            return 0
        }
        }
    }

    /// A body ready to send: bytes, a file, or a form to write to a temporary file first.
    enum Encoded {
        case bytes(Data, contentType: String)
        case file(URL, contentType: String)
        case spooled(MultipartForm, contentType: String)

        var contentType: String {
            switch self {
            case .bytes(_, let type), .file(_, let type), .spooled(_, let type): type
            }
        }
    }

    /// Encodes the body, or `nil` for no body. A multipart form larger than `memoryThreshold` is
    /// left to be written to a file.
    func encoded(with encoder: JSONEncoder, memoryThreshold: Int = .max) throws -> Encoded? {
        switch storage {
        case .none:
            return nil
        case .data(let data, let contentType):
            return .bytes(data, contentType: contentType)
        case .file(let url, let contentType):
            _ = try MultipartEncoder.readableSize(of: url)
            return .file(url, contentType: contentType)
        case .multipart(let form):
            let encoder = MultipartEncoder(form: form)
            if try encoder.size() > Int64(memoryThreshold) { return .spooled(form, contentType: form.contentType) }
            return .bytes(try encoder.data(), contentType: form.contentType)
        case .json(let value):
            return .bytes(try encoder.encode(value), contentType: "application/json")
        case .form(let fields):
            let text = fields.map { "\(Self.formEncode($0.name))=\(Self.formEncode($0.value))" }.joined(separator: "&")
            return .bytes(Data(text.utf8), contentType: "application/x-www-form-urlencoded")
        }
    }

    /// What stands for itself in a form field (the WHATWG `application/x-www-form-urlencoded`
    /// byte set); a space is written `+`.
    private static let formCharacters = ASCIISet.alphanumerics.adding("*-._")

    package static func formEncode(_ text: String) -> String {
        formCharacters.percentEncoded(text, spaceAsPlus: true)
    }
}
