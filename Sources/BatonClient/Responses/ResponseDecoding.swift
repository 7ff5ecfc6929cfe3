import Foundation

/// Decodes a validated response as its endpoint's `Response`, turning a failure into an
/// ``APIError`` that names the type, the coding path and the reason.
enum ResponseDecoding {
    static func decode<E: Endpoint>(
        _ response: HTTPResponse, for endpoint: E, request: RequestSummary, decoder: JSONDecoder
    ) throws(APIError) -> E.Response {
        try making(E.Response.self, of: response, request: request) { try endpoint.decode(response, with: endpoint.decoder ?? decoder) }
    }

    /// What `work` makes of `response` (the endpoint's decoding, or a download's or a stream's
    /// ending), with its failure as the ``APIError`` that says why: a `DecodingError` as
    /// ``APIError/Kind/decodingFailed`` with its coding path, a `URLError` (a download that
    /// could not be moved into place, say) as ``APIError/Kind/transport``.
    static func making<Value>(
        _ type: Value.Type, of response: HTTPResponse, request: RequestSummary, _ work: () throws -> Value
    ) throws(APIError) -> Value {
        do {
            return try work()
        } catch let error as DecodingError {
            let (path, reason) = describe(error)
            throw .decodingFailed(request, response, type: String(describing: Value.self), codingPath: path, reason: reason)
        } catch let error as APIError {
            throw error
        } catch let error as URLError {
            throw .transport(request, error)
        } catch {
            throw .decodingFailed(request, response, type: String(describing: Value.self), codingPath: "", reason: "\(error)")
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
