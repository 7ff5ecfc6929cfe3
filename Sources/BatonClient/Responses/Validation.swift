import Foundation

/// Checks a response's status code and content type against what its endpoint accepts, turning a
/// mismatch into the ``APIError`` that names it. Runs on every call: there is no step to forget.
enum Validation {
    /// What a `Decodable` response may be by default: JSON, and the `+json` types (such as
    /// `application/problem+json`).
    static let jsonContentTypes = ["application/json", "application/*+json"]

    /// Checks `response` against `endpoint`'s status codes and content types, or `contentTypes`
    /// in place of the endpoint's when given (a stream's).
    static func validate<E: Endpoint>(
        _ response: HTTPResponse, for endpoint: E, contentTypes: [String]? = nil, request: RequestSummary
    ) throws(APIError) {
        let acceptable = contentTypes ?? endpoint.acceptableContentTypes
        guard endpoint.acceptableStatusCodes.contains(response.statusCode) else {
            throw .unacceptableStatus(request, response, message: response.serverMessage)
        }
        let isEmptyNoContent = response.statusCode == 204 && response.body.isEmpty
        if !isEmptyNoContent, !accepts(response.mediaType, acceptable) {
            throw .unacceptableContentType(request, response, contentType: response.value(forHeader: "Content-Type"),
                                           acceptable: acceptable)
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
}
