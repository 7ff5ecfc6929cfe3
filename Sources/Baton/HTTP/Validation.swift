import Foundation

/// Checks a response against an endpoint and decodes it, turning every mismatch into the
/// ``APIError`` case that names it.
enum Validation {
    static func decode<E: Endpoint>(
        _ response: HTTPResponse, for endpoint: E, request: RequestSummary, decoder: JSONDecoder
    ) throws(APIError) -> E.Response {
        guard endpoint.acceptableStatusCodes.contains(response.statusCode) else {
            throw .unacceptableStatus(request, response, message: response.serverMessage)
        }
        let isEmptyNoContent = response.statusCode == 204 && response.body.isEmpty
        if !isEmptyNoContent, !accepts(response.mediaType, endpoint.acceptableContentTypes) {
            throw .unacceptableContentType(request, response, contentType: response.value(forHeader: "Content-Type"),
                                           acceptable: endpoint.acceptableContentTypes)
        }
        do {
            return try endpoint.decode(response, with: endpoint.decoder ?? decoder)
        } catch let error as DecodingError {
            let (path, reason) = describe(error)
            throw .decodingFailed(request, response, type: String(describing: E.Response.self), codingPath: path, reason: reason)
        } catch let error as APIError {
            throw error
        } catch {
            throw .decodingFailed(request, response, type: String(describing: E.Response.self), codingPath: "", reason: "\(error)")
        }
    }

    /// Whether `mediaType` (lower-cased, no parameters; `nil` when absent) matches one of the
    /// patterns: `*/*`, `type/*`, `type/subtype`, or `type/*+suffix`.
    static func accepts(_ mediaType: String?, _ patterns: [String]) -> Bool {
        if patterns.contains("*/*") { return true }
        guard let mediaType else { return false }
        if patterns.contains(mediaType) { return true }  // the usual case, without taking text apart
        let (type, subtype) = split(mediaType)
        return patterns.contains { pattern in
            let (patternType, patternSubtype) = split(pattern.lowercased())
            guard patternType == type else { return false }
            if patternSubtype == "*" || patternSubtype == subtype { return true }
            if patternSubtype.hasPrefix("*+") { return subtype.hasSuffix(String(patternSubtype.dropFirst())) }
            return false
        }
    }

    private static func split(_ mediaType: String) -> (String, String) {
        let parts = mediaType.split(separator: "/", maxSplits: 1)
        return (parts.first.map(String.init) ?? "", parts.count > 1 ? String(parts[1]) : "")
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
