import Foundation

/// The parameters of the redirect that ends an authorization (RFC 6749 §4.1.2 and §4.1.2.1), read
/// from its query: `code` and `state`, or `error`, `error_description` and `state`.
///
/// The query comes from outside the app (the browser hands back whatever URL the redirect had), so
/// reading it never traps and refuses what RFC 6749 §3.1 forbids: a parameter given twice, which
/// could otherwise smuggle a second `state` or `code` past a check that reads the first.
struct RedirectParameters: Equatable {
    /// Why a query cannot be read.
    enum Unreadable: Error, Equatable {
        /// A parameter appears more than once; its name, cut at 40 characters.
        case repeated(String)
        /// A name or value is not valid percent-encoded UTF-8.
        case badEncoding
    }

    /// The parameters by name, each decoded (`+` and `%20` are spaces).
    private(set) var values: [String: String] = [:]

    /// Reads the percent-encoded `query` of a URL, without its `?`; `nil` or empty holds nothing.
    init(query: String?) throws(Unreadable) {
        guard let query, !query.isEmpty else { return }
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decoded(parts[0]), let value = Self.decoded(parts.count > 1 ? parts[1] : "") else {
                throw .badEncoding
            }
            guard values[name] == nil else { throw .repeated(String(name.prefix(40))) }
            values[name] = value
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// A form-encoded piece decoded: `+` is a space, `%XX` a byte; `nil` if that is not UTF-8.
    private static func decoded(_ piece: Substring) -> String? {
        piece.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
