import Foundation

/// The SHA-256 a server names for the whole representation it sends: `Repr-Digest:
/// sha-256=:<base64>:` (RFC 9530), or the older `Digest: SHA-256=<base64>` (RFC 3230). A
/// download whose response names one is checked against it once whole, however many transfers it
/// took (see ``Client/download(_:to:options:)``).
///
/// `Content-Digest` names the digest of the bytes of this one response instead, which is the
/// representation's only for a whole `200` without a content coding; it is read then.
enum RepresentationDigest {
    /// The 32 bytes of the SHA-256 named by `headers` for a response of `status`; `nil` when none
    /// is named, or when what is named does not parse (an algorithm Baton does not check, a
    /// digest of the wrong length).
    static func sha256(in headers: (String) -> String?, status: Int) -> [UInt8]? {
        if let field = headers("Repr-Digest"), let digest = structured(field) { return digest }
        if let field = headers("Digest"), let digest = legacy(field) { return digest }
        if status == 200, headers("Content-Encoding") == nil, let field = headers("Content-Digest") { return structured(field) }
        return nil
    }

    /// The `sha-256` member of a structured-field dictionary such as `sha-256=:…:, sha-512=:…:`.
    private static func structured(_ field: String) -> [UInt8]? {
        for member in field.split(separator: ",") {
            let pair = member.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == "sha-256" else { continue }
            let value = pair[1].trimmingCharacters(in: .whitespaces)
            guard value.count > 2, value.hasPrefix(":"), value.hasSuffix(":") else { return nil }
            return decoded(String(value.dropFirst().dropLast()))
        }
        return nil
    }

    /// The `SHA-256` member of an RFC 3230 list such as `SHA-256=…, MD5=…`.
    private static func legacy(_ field: String) -> [UInt8]? {
        for member in field.split(separator: ",") {
            let pair = member.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "sha-256" else { continue }
            return decoded(pair[1].trimmingCharacters(in: .whitespaces))
        }
        return nil
    }

    private static func decoded(_ base64: String) -> [UInt8]? {
        guard let data = Data(base64Encoded: base64), data.count == 32 else { return nil }
        return Array(data)
    }

    /// `sha-256=:…:` for a message: the 32 bytes in base64.
    static func text(_ digest: [UInt8]) -> String {
        Data(digest).base64EncodedString()
    }
}
