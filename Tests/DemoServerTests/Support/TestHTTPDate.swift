import Foundation

/// HTTP-dates written and read by Foundation, independently of the server's own code.
enum TestHTTPDate {
    /// IMF-fixdate, `Sun, 06 Nov 1994 08:49:37 GMT`.
    static let fixdateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    /// The obsolete RFC 850 form, `Sunday, 06-Nov-94 08:49:37 GMT`.
    static let rfc850Format = "EEEE, dd-MMM-yy HH:mm:ss 'GMT'"
    /// asctime, `Sun Nov  6 08:49:37 1994`.
    static let asctimeFormat = "EEE MMM d HH:mm:ss yyyy"

    static func string(_ date: Date, format: String = fixdateFormat) -> String {
        let text = formatter(format).string(from: date)
        // asctime pads a one-digit day with a space, which no DateFormatter pattern does.
        guard format == asctimeFormat else { return text }
        var parts = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        if parts[2].count == 1 { parts[2] = " " + parts[2] }
        return parts.joined(separator: " ")
    }

    static func date(_ text: String) -> Date? {
        formatter(fixdateFormat).date(from: text)
    }

    private static func formatter(_ format: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = format
        return formatter
    }
}
