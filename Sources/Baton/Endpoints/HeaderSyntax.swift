import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What HTTP allows in a header field (RFC 9110 §5.1, §5.5 and §5.6.2), checked before anything is
/// sent: by the request builder for an endpoint's and the client's fields, and again for the fields
/// adapters set. A field that breaks a rule fails the call with ``APIError/Kind/invalidRequest``,
/// naming the field; nothing reaches the wire.
enum HeaderSyntax {
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
            throw .invalidRequest(summary, field: "header \"\(Redaction.escaped(name))\"\(origin)", reason: reason)
        }
    }

    /// Why the field `name: value` breaks RFC 9110's rules, or `nil` when it keeps them: the one
    /// check behind the builder's and ``HTTP1Transport``'s.
    static func problem(name: String, value: String) -> String? {
        guard isToken(name) else { return "the name is not an HTTP token" }
        if let control = value.utf8.first(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            return "the value contains the control character U+" + String(control, radix: 16, uppercase: true).leftPadded(to: 4)
        }
        return nil
    }

    /// RFC 9110 §5.6.2 `token`: the characters allowed in a method or a header name.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && tokenCharacters.containsAll(of: text)
    }

    /// What a token may hold: letters, digits and ``!#$%&'*+-.^_`|~``.
    private static let tokenCharacters = ASCIISet.alphanumerics.adding("!#$%&'*+-.^_`|~")
}
