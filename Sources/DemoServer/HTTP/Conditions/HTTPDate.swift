/// HTTP-dates (RFC 9110 §5.6.7) to and from whole seconds since 1970-01-01 00:00:00 UTC.
///
/// Written as IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the only form a sender may use; read in
/// all three forms a recipient must accept: IMF-fixdate, the obsolete RFC 850 form
/// (`Sunday, 06-Nov-94 08:49:37 GMT`) and asctime (`Sun Nov  6 08:49:37 1994`). Reading is strict
/// (exact spacing, case and field widths, a real calendar day, hours to 23, seconds to 59), so
/// anything else reads as no date, which the conditional headers treat as absent or unmatched.
/// Pure arithmetic, no C library, so the fuzz target exercises exactly what the server runs.
enum HTTPDate {
    static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let longDayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let secondsPerDay: Int64 = 86_400

    /// The IMF-fixdate of `seconds` since 1970 (UTC).
    static func format(_ seconds: Int64) -> String {
        let days = floorDivide(seconds, secondsPerDay)
        let time = seconds - days * secondsPerDay
        let (year, month, day) = civil(fromDays: days)
        // 1970-01-01 was a Thursday, index 4 counting from Sunday.
        let weekday = Int(((days % 7) + 7 + 4) % 7)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let paddedYear = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(dayNames[weekday]), \(two(day)) \(monthNames[Int(month) - 1]) \(paddedYear) "
            + "\(two(time / 3600)):\(two(time / 60 % 60)):\(two(time % 60)) GMT"
    }

    /// The seconds since 1970 a date names, in any of the three forms; nil for anything else.
    /// `now` (seconds since 1970) places an RFC 850 two-digit year: in the century that puts it
    /// at most 50 years ahead of now (§5.6.7).
    static func parse(_ text: String, now: Int64) -> Int64? {
        let bytes = Array(text.utf8)
        return parseFixdate(bytes) ?? parseRFC850(bytes, now: now) ?? parseAsctime(bytes)
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`: exactly 29 bytes.
    private static func parseFixdate(_ bytes: [UInt8]) -> Int64? {
        guard bytes.count == 29, dayNames.contains(text(bytes[0..<3])), text(bytes[3..<5]) == ", ",
              bytes[7] == .space, bytes[11] == .space, bytes[16] == .space, text(bytes[25...]) == " GMT",
              let day = number(bytes[5..<7]), let month = monthNames.firstIndex(of: text(bytes[8..<11])),
              let year = number(bytes[12..<16])
        else { return nil }
        return seconds(year: year, month: month + 1, day: day, time: bytes[17..<25])
    }

    /// `Sunday, 06-Nov-94 08:49:37 GMT`, the year in two digits.
    private static func parseRFC850(_ bytes: [UInt8], now: Int64) -> Int64? {
        guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")), longDayNames.contains(text(bytes[..<comma])) else {
            return nil
        }
        let rest = bytes[(comma + 1)...]
        let base = rest.startIndex
        guard rest.count == 23, rest[base] == .space, rest[base + 3] == UInt8(ascii: "-"),
              rest[base + 7] == UInt8(ascii: "-"), rest[base + 10] == .space, text(rest[(base + 19)...]) == " GMT",
              let day = number(rest[(base + 1)..<(base + 3)]),
              let month = monthNames.firstIndex(of: text(rest[(base + 4)..<(base + 7)])),
              let shortYear = number(rest[(base + 8)..<(base + 10)])
        else { return nil }
        let currentYear = civil(fromDays: floorDivide(now, secondsPerDay)).year
        var year = currentYear - currentYear % 100 + shortYear
        if year > currentYear + 50 { year -= 100 }
        return seconds(year: year, month: month + 1, day: day, time: rest[(base + 11)..<(base + 19)])
    }

    /// `Sun Nov  6 08:49:37 1994`: the day padded with a space, not a zero.
    private static func parseAsctime(_ bytes: [UInt8]) -> Int64? {
        guard bytes.count == 24, dayNames.contains(text(bytes[0..<3])), bytes[3] == .space, bytes[7] == .space,
              bytes[10] == .space, bytes[19] == .space,
              let month = monthNames.firstIndex(of: text(bytes[4..<7])), let year = number(bytes[20..<24])
        else { return nil }
        let day: Int64?
        if bytes[8] == .space {
            day = number(bytes[9..<10])
        } else {
            day = number(bytes[8..<10])
        }
        guard let day else { return nil }
        return seconds(year: year, month: month + 1, day: day, time: bytes[11..<19])
    }

    /// The date and `HH:MM:SS` as seconds since 1970, or nil when the day is not in its month or
    /// the time is not of a day.
    private static func seconds(year: Int64, month: Int, day: Int64, time: ArraySlice<UInt8>) -> Int64? {
        let base = time.startIndex
        guard time.count == 8, time[base + 2] == .colon, time[base + 5] == .colon,
              let hour = number(time[base..<(base + 2)]), let minute = number(time[(base + 3)..<(base + 5)]),
              let second = number(time[(base + 6)..<(base + 8)]),
              hour < 24, minute < 60, second < 60, day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        return days(year: year, month: Int64(month), day: day) * secondsPerDay + hour * 3600 + minute * 60 + second
    }

    private static func daysIn(month: Int, year: Int64) -> Int64 {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shifted = month <= 2 ? year - 1 : year
        let era = floorDivide(shifted, 400)
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day counted from 1970-01-01 (Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// ASCII digits as a number; nil when any byte is not a digit. Callers pass at most 4 bytes.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        var value: Int64 = 0
        for byte in digits {
            guard let digit = byte.decimalDigitValue else { return nil }
            value = value * 10 + Int64(digit)
        }
        return digits.isEmpty ? nil : value
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
