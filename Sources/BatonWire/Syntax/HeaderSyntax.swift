import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What HTTP allows in a header field (RFC 9110 §5.1, §5.5 and §5.6.2), checked before anything is
/// sent: by the client's request builder (which names the field in an `APIError`) and by the
/// HTTP/1.1 transport, so a field that breaks a rule never reaches the wire.
package enum HeaderSyntax {
    /// Why the field `name: value` breaks RFC 9110's rules, or `nil` when it keeps them: the one
    /// check behind the request builder's and the HTTP/1.1 transport's.
    package static func problem(name: String, value: String) -> String? {
        guard isToken(name) else { return "the name is not an HTTP token" }
        let isControl = { (byte: UInt8) in (byte < 0x20 && byte != 0x09) || byte == 0x7F }
        // Over the bytes in place when the string is native (it runs for every field of every
        // request, twice: the client's builder and the transport each check).
        let control = value.utf8.withContiguousStorageIfAvailable { $0.first(where: isControl) } ?? value.utf8.first(where: isControl)
        if let control {
            return "the value contains the control character U+" + String(control, radix: 16, uppercase: true).leftPadded(to: 4)
        }
        return nil
    }

    /// RFC 9110 §5.6.2 `token`: the characters allowed in a method or a header name.
    package static func isToken(_ text: String) -> Bool {
        !text.isEmpty && tokenCharacters.containsAll(of: text)
    }

    /// What a token may hold: letters, digits and ``!#$%&'*+-.^_`|~``.
    private static let tokenCharacters = ASCIISet.alphanumerics.adding("!#$%&'*+-.^_`|~")
}
