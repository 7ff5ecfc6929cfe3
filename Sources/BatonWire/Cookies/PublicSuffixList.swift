/// The Public Suffix List's algorithm (publicsuffix.org/list), over the rules compiled into Baton
/// (``PublicSuffixRules``, ICANN and private sections): the names under which anyone may register
/// a name of their own (`com`, `co.uk`, `github.io`, `pages.dev`), and so the name each owner
/// holds (`example.co.uk`, `alice.github.io`), its registrable domain.
///
/// A name is matched label by label, right to left, lowercased, against every rule: an exact rule
/// (`co.uk`), a wildcard (`*.ck` matches any one label under `ck`) and an exception (`!www.ck`,
/// which wins over every other match and stands for its parent, `ck`). Of the other matches the
/// rule with the most labels prevails; with none, the implicit rule `*` makes the last label the
/// public suffix. One trailing dot (`example.com.`) is set aside for the match and kept in the
/// answers. A name with an empty label elsewhere (`a..com`, `.com`) has no registrable domain
/// and counts as a public suffix: nothing may be claimed under it. Hosts are compared as URLs
/// spell them (punycode, `xn--`); the list's Unicode rules are there in both spellings.
///
/// The rules are parsed once, at first use (about 20 ms), into one dictionary; a look-up then
/// costs a hash per label of the name, up to the first suffix that ends no rule.
package struct PublicSuffixList: Sendable {
    /// The list compiled into Baton.
    package static let shared = PublicSuffixList(rules: PublicSuffixRules.text)

    /// What a name is to the rules: the name of an exact rule (`co.uk`), the name a wildcard
    /// stands on (`ck` for `*.ck`), an exception's name (`www.ck` for `!www.ck`), and the end of a
    /// longer rule's name (`uk`, `ck`).
    private struct Kinds: OptionSet {
        package let rawValue: UInt8
        package static let exact = Kinds(rawValue: 1)
        package static let wildcard = Kinds(rawValue: 2)
        package static let exception = Kinds(rawValue: 4)
        package static let parent = Kinds(rawValue: 8)
    }

    /// Every rule's name, and every name that ends one: a name that is not here ends no rule, so
    /// a look-up stops at the first suffix of a host that is not here (`example.com`), after one
    /// hash per label.
    private var names: [String: Kinds] = [:]

    /// The rules of `rules`, one a line, lowercased, as the list writes them (no comments).
    package init(rules: String) {
        // Bytes, not Characters: the Character view takes twice as long over ten thousand lines.
        for line in rules.utf8.split(separator: UInt8(ascii: "\n")) {
            var rule = line
            let kind: Kinds
            if rule.first == UInt8(ascii: "!") {
                kind = .exception
                rule = rule.dropFirst()
            } else if rule.starts(with: "*.".utf8) {
                kind = .wildcard
                rule = rule.dropFirst(2)
            } else {
                kind = .exact
            }
            names[String(Substring(rule)), default: []].insert(kind)
            while let dot = rule.firstIndex(of: UInt8(ascii: ".")) {
                rule = rule[rule.index(after: dot)...]
                names[String(Substring(rule)), default: []].insert(.parent)
            }
        }
    }

    /// Whether `name` is a public suffix: nothing lies between it and the rule that prevails
    /// (`com`, `co.uk`, `github.io`, `anything.ck`, but not `www.ck`). A name with an empty
    /// label is one (see the type's notes).
    package func isPublicSuffix(_ name: String) -> Bool {
        guard let match = match(name) else { return true }
        return match.count >= match.labelStarts.count
    }

    /// The registrable domain of `name`, its public suffix and one label more (`example.co.uk`
    /// for `www.example.co.uk`); `nil` when `name` is a public suffix itself. Lowercased, with
    /// `name`'s trailing dot when it has one.
    package func registrableDomain(_ name: String) -> String? {
        guard let match = match(name), match.count < match.labelStarts.count else { return nil }
        let start = match.labelStarts[match.labelStarts.count - match.count - 1]
        return String(decoding: match.bytes[start...], as: UTF8.self)
    }

    /// `name`'s bytes, lowercased, where each of its labels starts (one trailing dot set aside, yet
    /// kept in the bytes), and how many of its last labels form its public suffix; `nil` for a
    /// name with an empty label. Bytes, not Characters: splitting a String costs microseconds.
    private func match(_ name: String) -> (bytes: [UInt8], labelStarts: [Int], count: Int)? {
        let bytes = Array(name.lowercased().utf8)
        let dot = UInt8(ascii: ".")
        var end = bytes.count
        if end > 1, bytes[end - 1] == dot { end -= 1 }
        var labelStarts = [0]
        for index in 0..<end where bytes[index] == dot { labelStarts.append(index + 1) }
        // An empty label: a name that is empty, starts or ends with a dot, or has two in a row.
        guard end > 0, bytes[0] != dot, bytes[end - 1] != dot, !labelStarts.dropFirst().contains(where: { bytes[$0 - 2] == dot }) else {
            return nil
        }
        // The implicit rule `*`: the last label.
        var count = 1
        // What the suffix of one label fewer is: a wildcard there matches this suffix.
        var shorter: Kinds = []
        for length in 1...labelStarts.count {
            let suffix = String(decoding: bytes[labelStarts[labelStarts.count - length]..<end], as: UTF8.self)
            let kinds = names[suffix] ?? []
            // An exception prevails over every other match and stands for its parent.
            if kinds.contains(.exception) { return (bytes, labelStarts, length - 1) }
            if kinds.contains(.exact) || shorter.contains(.wildcard) { count = length }
            // No rule ends with this suffix: none matches a longer one.
            if kinds.isEmpty { break }
            shorter = kinds
        }
        return (bytes, labelStarts, count)
    }
}
