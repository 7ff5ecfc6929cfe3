import BatonSupport
import Foundation

/// The IMF-fixdate form of RFC 9110 §5.6.7 (`Sun, 06 Nov 1994 08:49:37 GMT`), plus the two
/// obsolete forms recipients must accept (`Sunday, 06-Nov-94 08:49:37 GMT` and
/// `Sun Nov  6 08:49:37 1994`). Every HTTP date the client reads goes through ``parse(_:)``.
package enum HTTPDate {
    /// The date `text` names in any of the three forms, tried in the order above; `nil` when it
    /// is none of them. Safe to call from any thread at once: the formatters are made once and
    /// used one call at a time.
    package static func parse(_ text: String) -> Date? {
        // DateFormatter is not thread-safe, and making one costs far more than a parse: the three
        // are made once, and each call holds them for its few microseconds.
        formatters.withLock { formatters in
            for formatter in formatters {
                if let date = formatter.date(from: text) { return date }
            }
            return nil
        }
    }

    /// One formatter per form, in the order ``parse(_:)`` tries them.
    private static let formatters = Locked(
        ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"].map { format in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            return formatter
        }
    )
}
