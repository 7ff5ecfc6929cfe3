import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import BatonWire

/// The request builder's use of ``HeaderSyntax``: a field that breaks a rule fails the call with
/// ``APIError/Kind/invalidRequest``, naming the field, and nothing reaches the wire.
extension HeaderSyntax {
    /// Checks every header field (RFC 9110 §5.1 and §5.5): a name must be a token, and a value must
    /// hold no control character but a tab (a line break would let it inject other fields). Run
    /// again after the adapters, which may add headers.
    static func validateHeaders(of request: URLRequest, summary: RequestSummary, setBy origin: String = "") throws(APIError) {
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            try validateHeader(name, value, summary: summary, setBy: origin)
        }
    }

    /// Checks one field; `origin` says who set it, in the error (" (set by an adapter)").
    static func validateHeader(_ name: String, _ value: String, summary: RequestSummary, setBy origin: String = "") throws(APIError) {
        if let reason = problem(name: name, value: value) {
            throw .invalidRequest(summary, field: "header \"\(MessageText.escaped(name))\"\(origin)", reason: reason)
        }
    }
}
