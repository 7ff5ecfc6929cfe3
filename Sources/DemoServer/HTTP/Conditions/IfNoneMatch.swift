/// An `If-None-Match` condition (RFC 9110 §13.1.2): `*`, or a list of entity tags, matched against
/// the current tag by weak comparison. A match turns a GET or HEAD into `304 Not Modified`.
enum IfNoneMatch: Sendable, Equatable {
    /// `*`: any current representation matches.
    case any
    case tags([EntityTag])

    /// The condition the request's `If-None-Match` field lines make together (a list may be split
    /// over several lines); nil when there are none, or when they do not parse, a condition the
    /// server treats as never matched. Empty list elements are allowed (§5.6.1); `*` must stand
    /// alone.
    static func parse(_ values: [String]) -> IfNoneMatch? {
        guard !values.isEmpty else { return nil }
        if values.count == 1, values[0].trimmingOWS() == "*" { return .any }
        var tags: [EntityTag] = []
        for value in values {
            let bytes = Array(value.utf8)
            var index = 0
            // Elements are separated by commas with optional whitespace; empty ones are skipped.
            while true {
                while index < bytes.count, bytes[index] == .space || bytes[index] == .tab || bytes[index] == UInt8(ascii: ",") {
                    index += 1
                }
                guard index < bytes.count else { break }
                guard let tag = EntityTag.scan(bytes, at: &index) else { return nil }
                tags.append(tag)
                while index < bytes.count, bytes[index] == .space || bytes[index] == .tab { index += 1 }
                guard index == bytes.count || bytes[index] == UInt8(ascii: ",") else { return nil }
            }
        }
        return tags.isEmpty ? nil : .tags(tags)
    }

    /// Whether the current representation, tagged `current`, matches (weak comparison).
    func matches(_ current: EntityTag) -> Bool {
        switch self {
        case .any: true
        case .tags(let tags): tags.contains { $0.matchesWeakly(current) }
        }
    }
}
