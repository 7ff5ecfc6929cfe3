import Foundation

/// Decodes a validated response as its endpoint's `Response`, turning a failure into an
/// ``APIError`` that names the type, the coding path and the reason.
enum ResponseDecoding {
    static func decode<E: Endpoint>(
        _ response: HTTPResponse, for endpoint: E, request: RequestSummary, decoder: JSONDecoder
    ) throws(APIError) -> E.Response {
        do {
            return try endpoint.decode(response, with: endpoint.decoder ?? decoder)
        } catch let error as DecodingError {
            let (path, reason) = describe(error)
            throw .decodingFailed(request, response, type: String(describing: E.Response.self), codingPath: path, reason: reason)
        } catch let error as APIError {
            throw error
        } catch let error as URLError {
            // A download that could not be moved into place, say.
            throw .transport(request, error)
        } catch {
            throw .decodingFailed(request, response, type: String(describing: E.Response.self), codingPath: "", reason: "\(error)")
        }
    }

    /// The coding path (`orders[0].subtotal`) and a plain reason for a decoding error.
    static func describe(_ error: DecodingError) -> (String, String) {
        func path(_ keys: [any CodingKey]) -> String {
            keys.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            return (path(context.codingPath), "key \"\(key.stringValue)\" is missing")
        case .typeMismatch(let type, let context):
            return (path(context.codingPath), "expected \(type): \(context.debugDescription)")
        case .valueNotFound(let type, let context):
            return (path(context.codingPath), "expected \(type) but found null")
        case .dataCorrupted(let context):
            return (path(context.codingPath), context.debugDescription)
        @unknown default:
            return ("", "\(error)")
        }
    }
}
