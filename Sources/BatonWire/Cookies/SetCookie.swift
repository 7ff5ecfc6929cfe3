import Foundation

/// One `Set-Cookie` field value, parsed by the user agent's rules of RFC 6265 §5.2: what the
/// server asked to be kept, before ``CookieJar`` decides whether and where to keep it.
///
/// A value whose cookie could not be sent back safely is refused as a whole (`init` responses
/// `nil`): one without `=` or with an empty name (§5.2 steps 2 and 5), one longer than
/// ``maximumSize`` bytes, and one whose name or value holds a control character (a CR, LF or NUL
/// would end the `Cookie` line and smuggle in another; RFC 6265bis §5.6 refuses them all but
/// HTAB). A `;` can never reach a value: the pair ends at the first one.
package struct SetCookie: Sendable {
    /// The largest field value kept, in bytes: RFC 6265 §6.1's minimum for a cookie's name,
    /// value and attributes together.
    package static let maximumSize = 4096

    package var name: String
    package var value: String
    /// The `Expires` attribute, when it parsed as a cookie-date (§5.1.1).
    package var expires: Date?
    /// The `Max-Age` attribute in seconds, which wins over `Expires` (§5.3 step 3).
    package var maxAge: Int?
    /// The `Domain` attribute, lowercased and without a leading dot; `nil` when absent or empty.
    package var domain: String?
    /// The `Path` attribute, when it starts with `/`; otherwise the jar uses the default path.
    package var path: String?
    package var isSecure = false
    /// Kept, and irrelevant to a client that runs no scripts.
    package var isHTTPOnly = false

    /// The cookie in `text`, or `nil` when it is refused. Of attributes named twice the last
    /// wins; unknown ones (`SameSite` among them) are ignored.
    package init?(_ text: String) {
        guard text.utf8.count <= Self.maximumSize else { return nil }
        var parts = text.split(separator: ";", omittingEmptySubsequences: false)[...]
        let pair = parts.removeFirst()
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        name = String(Self.trimmed(pair[..<equals]))
        value = String(Self.trimmed(pair[pair.index(after: equals)...]))
        guard !name.isEmpty, !Self.hasControl(name), !Self.hasControl(value) else { return nil }
        for attribute in parts {
            let equals = attribute.firstIndex(of: "=")
            let key = Self.trimmed(attribute[..<(equals ?? attribute.endIndex)]).lowercased()
            let argument = equals.map { Self.trimmed(attribute[attribute.index(after: $0)...]) } ?? ""
            switch key {
            case "expires":
                if let date = CookieDate.parse(argument) { expires = date }
            case "max-age":
                let negative = argument.hasPrefix("-")
                let digits = negative ? argument.dropFirst() : argument
                guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { continue }
                let magnitude = Int(digits) ?? .max
                maxAge = negative ? -magnitude : magnitude
            case "domain":
                var bare = argument.hasPrefix(".") ? argument.dropFirst() : argument
                // Hosts are compared in CanonicalHost's spelling, which drops one trailing dot.
                if bare.hasSuffix(".") { bare = bare.dropLast() }
                domain = bare.isEmpty ? nil : bare.lowercased()
            case "path":
                path = argument.hasPrefix("/") ? String(argument) : nil
            case "secure": isSecure = true
            case "httponly": isHTTPOnly = true
            default: continue
            }
        }
    }

    /// When the cookie expires, read at `now`: `Max-Age` if given (zero or less: at once),
    /// else `Expires`; `nil` for a session cookie, kept for the jar's life.
    package func expiry(now: Date) -> Date? {
        guard let maxAge else { return expires }
        guard maxAge > 0 else { return .distantPast }
        return min(now.addingTimeInterval(Double(maxAge)), .distantFuture)
    }

    /// `text` without the spaces and tabs around it (RFC 6265's WSP).
    private static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) }) else {
            return text[text.endIndex...]
        }
        return text[first...last]
    }

    /// Whether `text` holds a control character other than HTAB.
    private static func hasControl(_ text: String) -> Bool {
        text.utf8.contains { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
    }
}

/// The cookie-date of RFC 6265 §5.1.1: the lenient algorithm every browser uses for `Expires`,
/// which finds a time, a day, a month and a year among tokens in any order.
package enum CookieDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The date in `text`, or `nil` when the algorithm fails to find a valid one.
    package static func parse(_ text: Substring) -> Date? {
        var time: (Int, Int, Int)?, day: Int?, month: Int?, year: Int?
        for token in text.utf8.split(whereSeparator: isDelimiter) {
            let token = Array(token)
            if time == nil, let found = parseTime(token) {
                time = found
            } else if day == nil, let found = number(in: token, digits: 1...2) {
                day = found.value
            } else if month == nil, token.count >= 3,
                      let found = months.firstIndex(of: String(decoding: token[0..<3], as: UTF8.self).lowercased()) {
                month = found + 1
            } else if year == nil, let found = number(in: token, digits: 2...4) {
                year = found.value
            }
        }
        guard let (hour, minute, second) = time, let day, let month, var year else { return nil }
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        guard year >= 1601, hour <= 23, minute <= 59, second <= 59,
              day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E.
    private static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte)
            || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// The number at `start` of a token, of `digits` digits followed by the end or a non-digit,
    /// and where its digits end.
    private static func number(in token: [UInt8], from start: Int = 0, digits: ClosedRange<Int>) -> (value: Int, end: Int)? {
        var end = start
        while end < token.count, isDigit(token[end]) { end += 1 }
        guard digits.contains(end - start) else { return nil }
        return (token[start..<end].reduce(0) { $0 * 10 + Int($1 - 0x30) }, end)
    }

    /// hms-time = time-field ":" time-field ":" time-field, then the end or a non-digit.
    private static func parseTime(_ token: [UInt8]) -> (Int, Int, Int)? {
        guard let hour = number(in: token, digits: 1...2), hour.end < token.count, token[hour.end] == 0x3A,
              let minute = number(in: token, from: hour.end + 1, digits: 1...2), minute.end < token.count,
              token[minute.end] == 0x3A,
              let second = number(in: token, from: minute.end + 1, digits: 1...2) else { return nil }
        return (hour.value, minute.value, second.value)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar.
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
