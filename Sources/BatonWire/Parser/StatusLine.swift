/// The first line of a response (RFC 9112 §4): `HTTP/1.x SP 3DIGIT SP reason`, where the reason
/// may be empty, with or without the space before it.
package struct StatusLine: Sendable {
    package var version: HTTPVersion
    package var status: Int
    package var reason: String

    /// Parses `line` (without its line end). Any version but HTTP/1.x, a status code that is
    /// not three digits, or anything else after it than a space is not a status line; a status
    /// outside 100...599 and a control byte in the reason have their own errors.
    package static func parse(_ line: ArraySlice<UInt8>) throws(WireError) -> StatusLine {
        let bytes = Array(line)
        func byte(_ offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

        guard bytes.starts(with: "HTTP/1.".utf8), let minor = byte(7), WireText.isDigit(minor), byte(8) == WireText.space,
              let hundreds = byte(9), let tens = byte(10), let units = byte(11),
              WireText.isDigit(hundreds), WireText.isDigit(tens), WireText.isDigit(units),
              bytes.count == 12 || bytes[12] == WireText.space
        else { throw .invalidStatusLine(line) }

        let status = Int(hundreds - UInt8(ascii: "0")) * 100 + Int(tens - UInt8(ascii: "0")) * 10 + Int(units - UInt8(ascii: "0"))
        guard (100...599).contains(status) else { throw .statusOutOfRange(status) }

        let reason = bytes.count > 13 ? bytes[13...] : []
        if let bad = reason.first(where: { !WireText.isTextByte($0) }) { throw .invalidReasonPhrase(bad, line: line) }
        return StatusLine(version: HTTPVersion(major: 1, minor: Int(minor - UInt8(ascii: "0"))),
                          status: status, reason: WireText.decode(reason))
    }
}
