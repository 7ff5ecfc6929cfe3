/// What the bytes a server sent while a request's body was still going out are: an interim
/// answer to read past, or the final one.
///
/// A server may send `100 Continue`, `102 Processing` or `103 Early Hints` at any time, and a
/// client must accept them even unasked (RFC 9110 §15.2); only a final status (200 or more) means
/// the server will not wait for the rest of the body. So the body goes on past interim answers,
/// and stops at a final one.
enum InterimAnswer {
    /// How the waiting bytes begin.
    enum Reading: Equatable {
        /// A whole interim head (`1xx` but `101`) of this many bytes, its empty line included.
        case interim(length: Int)
        /// The beginning of a head not yet whole enough to tell: more bytes are needed.
        case incomplete
        /// A final head, `101`, or bytes that are no status line: the answer the body stops for
        /// (the response parser then reads or refuses it).
        case final
    }

    /// How `bytes`, the first waiting, begin. An interim head longer than `maximumLength` is
    /// read as `.final`, so that the response parser refuses it by its own limits.
    static func read(_ bytes: some Collection<UInt8>, maximumLength: Int = ResponseLimits().maximumHeadBytes) -> Reading {
        let prefix = Array(bytes.prefix(12))
        let expected = Array("HTTP/1.".utf8)
        guard prefix.count >= 12 else {
            return prefix.elementsEqual(expected.prefix(prefix.count)) ? .incomplete : .final
        }
        guard prefix.starts(with: expected), WireText.isDigit(prefix[7]), prefix[8] == WireText.space,
              prefix[9] == UInt8(ascii: "1"), WireText.isDigit(prefix[10]), WireText.isDigit(prefix[11]),
              !(prefix[10] == UInt8(ascii: "0") && prefix[11] == UInt8(ascii: "1")) else { return .final }
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
}
