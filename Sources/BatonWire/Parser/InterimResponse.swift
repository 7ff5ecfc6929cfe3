/// What the bytes a server sent while a request's body was still going out are: an interim
/// response to read past, or the final one.
///
/// A server may send `100 Continue`, `102 Processing` or `103 Early Hints` at any time, and a
/// client must accept them even unasked (RFC 9110 §15.2); only a final status (200 or more) means
/// the server will not wait for the rest of the body. So the body goes on past interim responses,
/// and stops at a final one.
package enum InterimResponse {
    /// How the waiting bytes begin.
    package enum Reading: Equatable {
        /// A whole interim head (`1xx` but `101`) of this many bytes, its empty line included.
        case interim(length: Int)
        /// The beginning of a head not yet whole enough to tell: more bytes are needed.
        case incomplete
        /// A final head, `101`, or bytes that are no status line: the response the body stops for
        /// (the response parser then reads or refuses it).
        case final
    }

    /// How `bytes`, the first waiting, begin. An interim head longer than `maximumLength` is
    /// read as `.final`, so that the response parser refuses it by its own limits.
    package static func read(_ bytes: some Collection<UInt8>, maximumLength: Int = ResponseLimits().maximumHeadBytes) -> Reading {
        // `HTTP/1.x 1xx`, byte by byte, as far as the bytes go: a mismatch anywhere is final.
        let prefix = Array(bytes.prefix(12))
        for (offset, byte) in prefix.enumerated() where !Self.fitsInterimStatusLine(byte, at: offset) { return .final }
        guard prefix.count == 12 else { return .incomplete }
        if prefix[10] == UInt8(ascii: "0") && prefix[11] == UInt8(ascii: "1") { return .final }  // 101
        // The head ends with an empty line: CRLF CRLF, or bare LFs, as the parser accepts.
        var previous: UInt8 = 0, beforeThat: UInt8 = 0, count = 0
        for byte in bytes {
            count += 1
            if count > maximumLength { return .final }
            if byte == WireText.lineFeed && (previous == WireText.lineFeed || previous == WireText.carriageReturn && beforeThat == WireText.lineFeed) {
                return .interim(length: count)
            }
            beforeThat = previous
            previous = byte
        }
        return .incomplete
    }

    private static let versionPrefix = Array("HTTP/1.".utf8)

    /// Whether `byte` may stand at `offset` of an interim status line's first 12 bytes.
    private static func fitsInterimStatusLine(_ byte: UInt8, at offset: Int) -> Bool {
        switch offset {
        case 0..<7: return byte == versionPrefix[offset]
        case 7, 10, 11: return WireText.isDigit(byte)
        case 8: return byte == WireText.space
        default: return byte == UInt8(ascii: "1")
        }
    }
}
