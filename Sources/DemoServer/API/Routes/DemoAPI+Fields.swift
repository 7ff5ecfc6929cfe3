import Foundation

/// Form and JSON request bodies, the two types the API's POST routes take.
extension DemoAPI {
    /// A form or JSON body, the two types the API's POST routes take.
    enum Fields {
        case form([(name: String, value: String)])
        case json(JSONValue)
    }

    /// The lower-cased media type of the request body, without parameters.
    func mediaType(_ head: HTTPRequestHead) -> String? {
        head.headers["Content-Type"].flatMap { HeaderParameters.parse($0)?.value }
    }

    /// The body as form or JSON fields: 415 for another type, 413 past 1 MiB, 422 when it does not
    /// parse (or JSON that is not an object).
    func readFields(_ exchange: HTTPExchange) throws(Refusal) -> Fields {
        let type = mediaType(exchange.head)
        guard type == "application/x-www-form-urlencoded" || type == "application/json" else {
            throw Refusal(415, "body must be application/x-www-form-urlencoded or application/json")
        }
        guard let bytes = exchange.body.bytes(limit: Self.maxFieldsBodyBytes) else {
            throw Refusal(413, "form and JSON bodies are limited to 1 MiB")
        }
        if type == "application/json" {
            guard let value = JSONParser.parse(bytes) else { throw Refusal(422, "body is not valid JSON") }
            guard case .object = value else { throw Refusal(422, "body must be a JSON object") }
            return .json(value)
        }
        guard let text = String(bytes: bytes, encoding: .utf8), let pairs = FormURLEncoded.decode(text) else {
            throw Refusal(422, "body is not valid form data")
        }
        return .form(pairs)
    }
}
