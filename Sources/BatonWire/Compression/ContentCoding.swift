/// What becomes of a response body, given its `Content-Encoding` and what the request asked for
/// (`Accept-Encoding`, RFC 9110 §12.5.3): undone, kept as it came, or refused.
///
/// Baton undoes one `gzip` (or `x-gzip`) or `deflate` coding, what its transport asks for when
/// the request names no `Accept-Encoding` of its own. A body coded otherwise (`br`, `zstd`, two
/// codings one over the other) is kept as it came only when the request's own `Accept-Encoding`
/// named every one of its codings: the caller asked for those bytes and will decode them. Any
/// other is refused, with a sentence naming the coding, never handed on as if it were the body.
package enum ContentCoding: Equatable {
    /// No coding (none named, or only `identity`), or codings the request itself asked for.
    case asItCame
    /// The one coding Baton undoes.
    case inflate(Inflater.Format)
    /// A coding Baton cannot undo and the request did not ask for: why, as a sentence.
    case refused(String)

    /// The codings Baton undoes, by name.
    private static let undone: [String: Inflater.Format] = ["gzip": .gzip, "x-gzip": .gzip, "deflate": .deflate]

    /// What becomes of a body whose `Content-Encoding` fields are `fields` (every value, in order),
    /// for a request whose own `Accept-Encoding` is `asked` (`nil`: it set none, and the transport
    /// asked for `gzip` and `deflate`).
    package init(contentEncoding fields: [String], asked: String?) {
        let codings = fields.flatMap { $0.split(separator: ",") }.map(Self.name).filter { !$0.isEmpty && $0 != "identity" }
        guard !codings.isEmpty else {
            self = .asItCame
            return
        }
        if codings.count == 1, let format = Self.undone[codings[0]] {
            self = .inflate(format)
            return
        }
        let acceptable = Self.acceptable(asked)
        if asked != nil, codings.allSatisfy({ acceptable.contains($0) || acceptable.contains("*") }) {
            self = .asItCame
            return
        }
        let named = codings.joined(separator: ", ")
        // Codings Baton undoes, one over the other: asked for each, but not together.
        if codings.allSatisfy({ Self.undone[$0] != nil }) {
            self = .refused("the server sent a body coded as \(named), which Baton cannot decode (it undoes one gzip or deflate coding)")
        } else {
            self = .refused("the server sent a body coded as \(named), which Baton did not ask for and cannot decode")
        }
    }

    /// The codings an `Accept-Encoding` value names as acceptable: each name, lowercased, but
    /// those with `q=0` (which says "not this one").
    private static func acceptable(_ asked: String?) -> Set<String> {
        var names = Set<String>()
        for element in (asked ?? "").split(separator: ",") {
            let parts = element.split(separator: ";")
            let refused = parts.dropFirst().contains { parameter in
                let pair = parameter.split(separator: "=", maxSplits: 1).map(name)
                return pair.count == 2 && pair[0] == "q" && (Double(pair[1]) ?? 1) == 0
            }
            if let first = parts.first, !refused { names.insert(name(first)) }
        }
        return names
    }

    /// A coding's name as compared: without surrounding spaces, lowercased (names are
    /// case-insensitive, RFC 9110 §8.4.1).
    private static func name(_ text: Substring) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(text.drop(while: blank).reversed().drop(while: blank).reversed()).lowercased()
    }
}
